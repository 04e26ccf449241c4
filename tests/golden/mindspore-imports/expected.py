"""Every spelling of a torch import resolves to the same API."""
import os
from mindspore import nn, ops


def make(width):
    a = nn.Dense(width, width)
    b = nn.Dense(width, width, has_bias=False)
    c = nn.Dense(width, 2)
    act = nn.ReLU()
    return nn.SequentialCell(a, act, b, c)


def head(x):
    y = ops.relu(x)
    z = ops.softmax(y, axis=-1)
    w = ops.log_softmax(z, axis=1)
    return ops.cat([y, z, w], axis=1)


def optimiser(model):
    return nn.SGD(model.trainable_params(), learning_rate=0.1, momentum=0.9)


print(os.getcwd())
