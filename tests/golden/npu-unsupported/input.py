import torch
from apex.optimizers import FusedAdam
from apex import amp
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

model = torch.nn.Linear(4, 4).cuda()
opt = FusedAdam(model.parameters(), lr=1e-3)
model, opt = amp.initialize(model, opt, opt_level="O1")
torch.cuda.nvtx.range_push("step")
torch.cuda.nvtx.range_pop()

ext = CUDAExtension("my_ops", sources=["my_ops.cpp", "my_kernel.cu"])
