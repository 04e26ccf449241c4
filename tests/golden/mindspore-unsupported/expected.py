from mindspore import nn
import torch


class Odd(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mix = nn.BiDense(8, 8, 16)
        self.lin = nn.Dense(16, 4)
        self.act = nn.LeakyReLU(alpha=0.2)

    def construct(self, x):
        y = self.mix(x, x)
        return torch.fft.rfft(self.act(self.lin(y)))


def adam(model):
    return torch.optim.Adam(model.trainable_params(), lr=1e-3, betas=(0.9, 0.99))
