import os
import mindspore as ms
from mindspore import nn
import torch
import torch.distributed as dist


def setup(model):
    ms.communication.init()
    rank = ms.communication.get_rank()
    world = ms.communication.get_group_size()
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    dist.barrier()
    return model, rank, world


def autocast_step(model, x):
    scaler = torch.cuda.amp.GradScaler()
    with torch.autocast(device_type="cuda", dtype=ms.bfloat16):
        y = model(x)
    return scaler, y


def count(model: nn.Cell, url: str = "env://") -> int:
    ms.communication.init()
    return sum(p.numel() for p in model.trainable_params())
