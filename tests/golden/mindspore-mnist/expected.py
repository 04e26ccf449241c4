"""A digit classifier in the shape of the classic MNIST example: our own code, the same API uses."""
import argparse
import mindspore as ms
from mindspore import nn, ops
import mindspore.dataset as ds
import torch
from torchvision import datasets, transforms
from torch.optim.lr_scheduler import StepLR


class DigitNet(nn.Cell):
    def __init__(self):
        super(DigitNet, self).__init__()
        self.c1 = nn.Conv2d(1, 16, 3, stride=1, pad_mode='pad', has_bias=True)
        self.c2 = nn.Conv2d(16, 32, 3, stride=1, pad_mode='pad', has_bias=True)
        self.d1 = nn.Dropout(p=0.2)
        self.d2 = nn.Dropout(p=0.4)
        self.f1 = nn.Dense(4608, 64)
        self.f2 = nn.Dense(64, 10)

    def construct(self, x):
        x = ops.relu(self.c1(x))
        x = ops.relu(self.c2(x))
        x = ops.max_pool2d(x, 2)
        x = self.d1(x)
        x = ops.flatten(x, start_dim=1)
        x = ops.relu(self.f1(x))
        x = self.d2(x)
        return ops.log_softmax(self.f2(x), axis=1)


def fit(opts, net, device, loader, opt, epoch):
    net.set_train(mode=True)
    def forward_fn(images, labels):
        scores = net(images)
        loss = ops.nll_loss(scores, labels)
        return loss
    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)
    for i, (images, labels) in enumerate(loader):
        loss, grads = grad_fn(images, labels)
        opt(grads)
        if i % opts.every == 0:
            print("epoch", epoch, "batch", i, "loss", loss.item())


def score(net, device, loader):
    net.set_train(mode=False)
    lost, hits = 0, 0
    for images, labels in loader:
        scores = net(images)
        lost += ops.nll_loss(scores, labels, reduction='sum').item()
        guess = scores.argmax(dim=1, keepdim=True)
        hits += guess.eq(labels.view_as(guess)).sum().item()
    print("loss", lost, "hits", hits)


def main():
    p = argparse.ArgumentParser(description="digits")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=1.0)
    p.add_argument("--every", type=int, default=20)
    p.add_argument("--keep", action="store_true")
    opts = p.parse_args()
    accel = ms.hal.is_available("Ascend")
    ms.set_seed(7)
    if accel:
        device = "Ascend"
    else:
        device = "CPU"
    loader_args = {"batch_size": opts.batch}
    prep = ds.transforms.Compose([ds.vision.ToTensor(), ds.vision.Normalize((0.5,), (0.5,), is_hwc=False)])
    train_set = datasets.MNIST("data", train=True, download=True, transform=prep)
    test_set = datasets.MNIST("data", train=False, transform=prep)
    train_loader = torch.utils.data.DataLoader(train_set, **loader_args)
    test_loader = ds.GeneratorDataset(test_set, column_names=["data", "label"], shuffle=False).batch(500)
    net = DigitNet()
    opt = nn.Adadelta(net.trainable_params(), learning_rate=opts.lr)
    sched = StepLR(opt, step_size=1, gamma=0.7)
    for epoch in range(1, opts.epochs + 1):
        fit(opts, net, device, train_loader, opt, epoch)
        score(net, device, test_loader)
        sched.step()
    if opts.keep:
        ms.save_checkpoint(net, "digits.pt")


if __name__ == "__main__":
    ms.set_device("Ascend")
    main()
