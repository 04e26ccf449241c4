import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import autocast, GradScaler


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def train(model, loader, optimizer, scaler, epoch):
    model.train()
    for batch, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        with autocast():
            output = model(data)
            loss = F.cross_entropy(output, target)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        if batch % 100 == 0:
            print(epoch, batch, loss.item())


def evaluate(model, data):
    with torch.autocast("cuda"):
        return model(data)


class Trainer:
    def __init__(self, lr):
        self.encoder = Net()
        self.opt = torch.optim.Adam(self.encoder.parameters(), lr=lr)
        self.grad_scaler = torch.amp.GradScaler("cuda", init_scale=1024.0, growth_interval=500)

    def fit(self, batches):
        for x, y in batches:
            self.opt.zero_grad()
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = F.mse_loss(self.encoder(x), y)
            self.grad_scaler.scale(loss).backward()
            self.grad_scaler.step(self.opt)
            self.grad_scaler.update()


def train_bf16(model, batches, optimizer):
    for x, y in batches:
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()


def train_optional(model, batches, optimizer, use_amp):
    opt_scaler = GradScaler(enabled=use_amp)
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        opt_scaler.scale(loss).backward()
        opt_scaler.step(optimizer)
        opt_scaler.update()


def main():
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = GradScaler()
    loader = []
    for epoch in range(3):
        train(model, loader, optimizer, scaler, epoch)


if __name__ == "__main__":
    main()
