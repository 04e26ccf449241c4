"""A small data-parallel training script for CUDA GPUs: .cuda(), amp, DDP over NCCL.

Migrate it to Ascend NPUs with
    ferry migrate examples/torch_train -o /tmp/torch_train_out --to torch_npu
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

torch.backends.cudnn.benchmark = True


def main():
    distributed = "LOCAL_RANK" in os.environ
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if distributed:
        dist.init_process_group(backend="nccl")
    torch.cuda.set_device(local_rank)
    device = torch.device(f"cuda:{local_rank}")

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).cuda()
    if distributed:
        model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler()

    for step in range(20):
        x = torch.randn(32, 64, device=device)
        y = torch.randint(0, 10, (32,)).cuda(non_blocking=True)
        with torch.cuda.amp.autocast():
            loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        if step % 5 == 0 and local_rank == 0:
            torch.cuda.synchronize()
            print(f"step {step} loss {loss.item():.4f} mem {torch.cuda.max_memory_allocated() >> 20} MiB")
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
