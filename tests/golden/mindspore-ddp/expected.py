import mindspore as ms
from mindspore import nn, mint


class Tiny(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(16, 4)

    def construct(self, x):
        return self.proj(x)


def build(rank):
    ms.communication.init()
    net = Tiny()
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    model = net
    return model, ms.communication.get_rank(), ms.communication.get_group_size()


class Runner:
    def __init__(self, rank):
        self.model = Tiny()

    def reduce(self, t):
        mint.distributed.all_reduce(t)
        return t / ms.communication.get_group_size()
