import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0,1")
dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
dev = torch.device(f"cuda:{local_rank}")

model = torch.nn.Linear(8, 8).to(dev)
ddp = DDP(model, device_ids=[local_rank], output_device=local_rank)
fsdp = FSDP(torch.nn.Linear(8, 8), device_id=torch.cuda.current_device())
dist.init_process_group("nccl", init_method="env://")
dist.barrier()
