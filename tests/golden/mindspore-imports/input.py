"""Every spelling of a torch import resolves to the same API."""
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.nn import functional as Fn
from torch.nn import Linear, ReLU


def make(width):
    a = torch.nn.Linear(width, width)
    b = nn.Linear(width, width, bias=False)
    c = Linear(width, 2)
    act = ReLU(inplace=True)
    return nn.Sequential(a, act, b, c)


def head(x):
    y = F.relu(x)
    z = Fn.softmax(y, dim=-1)
    w = torch.nn.functional.log_softmax(z, 1)
    return torch.cat([y, z, w], dim=1)


def optimiser(model):
    return optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


print(os.getcwd())
