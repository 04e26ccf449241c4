import torch
from torch.cuda.amp import autocast, GradScaler

torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = False
torch.backends.cuda.matmul.allow_tf32 = True

model = torch.nn.Linear(32, 32).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = GradScaler()
static_x = torch.randn(4, 32, device="cuda")

for _ in range(3):
    with autocast(dtype=torch.float16):
        loss = model(static_x).sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()

with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
    out = model(static_x)

g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)
g.replay()
scaler2 = torch.amp.GradScaler("cuda")
