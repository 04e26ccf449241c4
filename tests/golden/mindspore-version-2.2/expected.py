import mindspore as ms
from mindspore import nn, ops
import torch


def run(model, batch):
    device = "GPU" if torch.cuda.is_available() else "CPU"
    out = model(batch)
    half = out.to(ms.float16)
    return ops.stop_gradient(half).asnumpy(), out.shape[0]


if __name__ == "__main__":
    ms.set_context(device_target="GPU")
    net = nn.Dense(4, 2)
    print(run(net, ops.randn(3, 4)))


def describe():
    return f"accelerator available: {torch.cuda.is_available()}"
