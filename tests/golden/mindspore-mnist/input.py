"""A digit classifier in the shape of the classic MNIST example: our own code, the same API uses."""
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torchvision import datasets, transforms
from torch.optim.lr_scheduler import StepLR


class DigitNet(nn.Module):
    def __init__(self):
        super(DigitNet, self).__init__()
        self.c1 = nn.Conv2d(1, 16, 3, 1)
        self.c2 = nn.Conv2d(16, 32, 3, 1)
        self.d1 = nn.Dropout(0.2)
        self.d2 = nn.Dropout(0.4)
        self.f1 = nn.Linear(4608, 64)
        self.f2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.relu(self.c2(x))
        x = F.max_pool2d(x, 2)
        x = self.d1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.f1(x))
        x = self.d2(x)
        return F.log_softmax(self.f2(x), dim=1)


def fit(opts, net, device, loader, opt, epoch):
    net.train()
    for i, (images, labels) in enumerate(loader):
        images, labels = images.to(device), labels.to(device)
        opt.zero_grad()
        scores = net(images)
        loss = F.nll_loss(scores, labels)
        loss.backward()
        opt.step()
        if i % opts.every == 0:
            print("epoch", epoch, "batch", i, "loss", loss.item())


def score(net, device, loader):
    net.eval()
    lost, hits = 0, 0
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            scores = net(images)
            lost += F.nll_loss(scores, labels, reduction='sum').item()
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
    accel = torch.accelerator.is_available()
    torch.manual_seed(7)
    if accel:
        device = torch.accelerator.current_accelerator()
    else:
        device = torch.device("cpu")
    loader_args = {"batch_size": opts.batch}
    prep = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,), (0.5,))])
    train_set = datasets.MNIST("data", train=True, download=True, transform=prep)
    test_set = datasets.MNIST("data", train=False, transform=prep)
    train_loader = torch.utils.data.DataLoader(train_set, **loader_args)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=500)
    net = DigitNet().to(device)
    opt = optim.Adadelta(net.parameters(), lr=opts.lr)
    sched = StepLR(opt, step_size=1, gamma=0.7)
    for epoch in range(1, opts.epochs + 1):
        fit(opts, net, device, train_loader, opt, epoch)
        score(net, device, test_loader)
        sched.step()
    if opts.keep:
        torch.save(net.state_dict(), "digits.pt")


if __name__ == "__main__":
    main()
