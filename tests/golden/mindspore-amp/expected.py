import mindspore as ms
from mindspore import nn, ops
import torch
from torch.cuda.amp import autocast, GradScaler


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(784, 128)
        self.fc2 = nn.Dense(128, 10)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


def train(model, loader, optimizer, scaler, epoch):
    model.set_train(mode=True)
    def forward_fn(data, target):
        output = model(data)
        loss = ops.cross_entropy(output, target)
        return scaler.scale(loss)
    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    for batch, (data, target) in enumerate(loader):
        loss, grads = grad_fn(data, target)
        loss = scaler.unscale(loss)
        grads = scaler.unscale(grads)
        grads = ops.clip_by_global_norm(grads, 1.0)
        is_finite = ms.amp.all_finite(grads)
        if is_finite:
            optimizer(grads)
        scaler.adjust(is_finite)
        if batch % 100 == 0:
            print(epoch, batch, loss.item())


def evaluate(model, data):
    with torch.autocast("cuda"):
        return model(data)


class Trainer:
    def __init__(self, lr):
        self.encoder = Net()
        self.encoder = ms.amp.auto_mixed_precision(self.encoder, 'O1')
        self.opt = nn.Adam(self.encoder.trainable_params(), learning_rate=lr)
        self.grad_scaler = ms.amp.DynamicLossScaler(scale_value=1024.0, scale_factor=2, scale_window=500)

    def fit(self, batches):
        def forward_fn_2(x, y):
            loss = ops.mse_loss(self.encoder(x), y)
            return self.grad_scaler.scale(loss)
        grad_fn_2 = ms.value_and_grad(forward_fn_2, None, self.opt.parameters)
        for x, y in batches:
            loss, grads_2 = grad_fn_2(x, y)
            loss = self.grad_scaler.unscale(loss)
            grads_2 = self.grad_scaler.unscale(grads_2)
            is_finite_2 = ms.amp.all_finite(grads_2)
            if is_finite_2:
                self.opt(grads_2)
            self.grad_scaler.adjust(is_finite_2)


def train_bf16(model, batches, optimizer):
    for x, y in batches:
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=ms.bfloat16):
            loss = ops.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()


def train_optional(model, batches, optimizer, use_amp):
    opt_scaler = GradScaler(enabled=use_amp)
    for x, y in batches:
        optimizer.zero_grad()
        loss = ops.cross_entropy(model(x), y)
        opt_scaler.scale(loss).backward()
        opt_scaler.step(optimizer)
        opt_scaler.update()


def main():
    model = Net()
    model = ms.amp.auto_mixed_precision(model, 'O1')
    optimizer = nn.SGD(model.trainable_params(), learning_rate=0.01)
    scaler = ms.amp.DynamicLossScaler(scale_value=2**16, scale_factor=2, scale_window=2000)
    loader = []
    for epoch in range(3):
        train(model, loader, optimizer, scaler, epoch)


if __name__ == "__main__":
    main()
