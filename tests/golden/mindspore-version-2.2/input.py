import torch
import torch.nn as nn


def run(model, batch):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = model.to(device)
    batch = batch.cuda()
    out = model(batch.to(device)).cpu()
    half = out.to(torch.float16)
    return half.detach().numpy(), out.size(0)


if __name__ == "__main__":
    net = nn.Linear(4, 2)
    print(run(net, torch.randn(3, 4)))


def describe():
    return f"accelerator available: {torch.cuda.is_available()}"
