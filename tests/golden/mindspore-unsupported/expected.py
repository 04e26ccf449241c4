import mindspore.nn
import torch
import torch.nn as nn


class Odd(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.mix = nn.Bilinear(8, 8, 16)
        self.lin = mindspore.nn.Dense(16, 4)
        self.act = mindspore.nn.LeakyReLU(alpha=0.2)

    def construct(self, x):
        y = self.mix(x, x)
        return torch.fft.rfft(self.act(self.lin(y)))


def adam(model):
    return torch.optim.Adam(model.trainable_params(), lr=1e-3, betas=(0.9, 0.99))
