import torch
import torch.nn as nn


class Odd(nn.Module):
    def __init__(self):
        super().__init__()
        self.mix = nn.Bilinear(8, 8, 16)
        self.lin = nn.Linear(16, 4, device="cpu")
        self.act = nn.LeakyReLU(0.2, inplace=True)

    def forward(self, x):
        y = self.mix(x, x)
        return torch.fft.rfft(self.act(self.lin(y)))


def adam(model):
    return torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.99))
