import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 4)

    def forward(self, x):
        return self.proj(x)


def build(rank):
    dist.init_process_group(backend="nccl")
    net = Tiny()
    model = DDP(net, device_ids=[rank], find_unused_parameters=False)
    return model, dist.get_rank(), dist.get_world_size()


class Runner:
    def __init__(self, rank):
        self.model = Tiny()
        self.model = torch.nn.parallel.DistributedDataParallel(self.model, device_ids=[rank])

    def reduce(self, t):
        dist.all_reduce(t)
        return t / dist.get_world_size()
