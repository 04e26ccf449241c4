import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader
from torchvision import datasets, transforms


class Pairs(Dataset):
    def __init__(self, n):
        self.x = np.random.rand(n, 8).astype(np.float32)
        self.y = np.random.randint(0, 2, n)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def loaders(batch):
    train = DataLoader(Pairs(100), batch_size=batch, shuffle=True, num_workers=2, drop_last=True)
    test = torch.utils.data.DataLoader(Pairs(20), batch)
    kwargs = {"batch_size": batch}
    other = DataLoader(Pairs(10), **kwargs)
    mnist = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
    return train, test, other, mnist
