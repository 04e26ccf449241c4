import numpy as np
import mindspore.dataset as ds
from torch.utils.data import Dataset, DataLoader
from torchvision import datasets, transforms


class Pairs:
    def __init__(self, n):
        self.x = np.random.rand(n, 8).astype(np.float32)
        self.y = np.random.randint(0, 2, n)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def loaders(batch):
    train = ds.GeneratorDataset(Pairs(100), column_names=["data", "label"], shuffle=True, num_parallel_workers=2).batch(batch, drop_remainder=True)
    test = ds.GeneratorDataset(Pairs(20), column_names=["data", "label"], shuffle=False).batch(batch)
    kwargs = {"batch_size": batch}
    other = DataLoader(Pairs(10), **kwargs)
    mnist = datasets.MNIST("data", train=True, download=True, transform=ds.vision.ToTensor())
    return train, test, other, mnist
