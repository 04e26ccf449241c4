import mindspore as ms
from mindspore import nn, ops


def run(model, batch):
    device = "Ascend" if ms.hal.is_available("Ascend") else "CPU"
    out = model(batch)
    half = out.to(ms.float16)
    return ops.stop_gradient(half).asnumpy(), out.shape[0]


if __name__ == "__main__":
    ms.set_device("Ascend")
    net = nn.Dense(4, 2)
    print(run(net, ops.randn(3, 4)))


def describe():
    return f"accelerator available: {ms.hal.is_available('Ascend')}"
