import os

import torch
import torch_npu
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

os.environ.setdefault("ASCEND_RT_VISIBLE_DEVICES", "0,1")
dist.init_process_group(backend="hccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.npu.set_device(local_rank)
dev = torch.device(f"npu:{local_rank}")

model = torch.nn.Linear(8, 8).to(dev)
ddp = DDP(model, device_ids=[local_rank], output_device=local_rank)
fsdp = FSDP(torch.nn.Linear(8, 8), device_id=torch.npu.current_device())
dist.init_process_group("hccl", init_method="env://")
dist.barrier()
