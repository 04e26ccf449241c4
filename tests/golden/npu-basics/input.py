"""Basic CUDA usage in a PyTorch script: devices, tensors, modules, synchronization."""
import os
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
print("GPUs:", torch.cuda.device_count(), torch.cuda.get_device_name(0))

model = nn.Linear(16, 4).cuda()
x = torch.randn(8, 16).cuda(non_blocking=True)
y = torch.zeros(8, 4, device='cuda:0')
z = x.to('cuda')
w = torch.ones(2, device=torch.device("cuda", 0))
if x.is_cuda and x.device.type == 'cuda':
    torch.cuda.synchronize()
torch.cuda.manual_seed_all(0)
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated())
state = torch.load("ckpt.pt", map_location="cuda:0")
s = torch.cuda.Stream()
e = torch.cuda.Event(enable_timing=True)
with torch.cuda.stream(s):
    e.record()
label = "cuda"  # not a device argument: left alone
