import torch
import torch_npu
from torch_npu.npu.amp import autocast, GradScaler

torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = False
torch.backends.cuda.matmul.allow_tf32 = True

model = torch.nn.Linear(32, 32).npu()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = GradScaler()
static_x = torch.randn(4, 32, device="npu")

for _ in range(3):
    with autocast(dtype=torch.float16):
        loss = model(static_x).sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()

with torch.autocast(device_type="npu", dtype=torch.bfloat16):
    out = model(static_x)

g = torch.npu.NPUGraph()
with torch.npu.graph(g):
    static_y = model(static_x)
g.replay()
scaler2 = torch.amp.GradScaler("npu")
