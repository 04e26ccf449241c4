"""Basic CUDA usage in a PyTorch script: devices, tensors, modules, synchronization."""
import os
import torch
import torch_npu
import torch.nn as nn

device = "npu" if torch.npu.is_available() else "cpu"
print("GPUs:", torch.npu.device_count(), torch.npu.get_device_name(0))

model = nn.Linear(16, 4).npu()
x = torch.randn(8, 16).npu(non_blocking=True)
y = torch.zeros(8, 4, device='npu:0')
z = x.to('npu')
w = torch.ones(2, device=torch.device("npu", 0))
if x.is_npu and x.device.type == 'npu':
    torch.npu.synchronize()
torch.npu.manual_seed_all(0)
torch.npu.empty_cache()
print(torch.npu.memory_allocated(), torch.npu.max_memory_allocated())
state = torch.load("ckpt.pt", map_location="npu:0")
s = torch.npu.Stream()
e = torch.npu.Event(enable_timing=True)
with torch.npu.stream(s):
    e.record()
label = "cuda"  # not a device argument: left alone
