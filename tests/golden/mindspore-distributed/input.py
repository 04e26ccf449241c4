import os
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def setup(model):
    dist.init_process_group(backend="nccl", init_method="env://")
    rank = dist.get_rank()
    world = dist.get_world_size()
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = DDP(model)
    dist.barrier()
    return model, rank, world


def autocast_step(model, x):
    scaler = torch.cuda.amp.GradScaler()
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        y = model(x)
    return scaler, y


def count(model: torch.nn.Module, url: str = "env://") -> int:
    torch.distributed.init_process_group(
        backend="nccl",
        init_method=url,
    )
    return sum(p.numel() for p in model.parameters())
