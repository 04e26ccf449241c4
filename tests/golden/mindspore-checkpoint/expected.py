import mindspore as ms
import torch


def save(model, path):
    ms.save_checkpoint(model, path)


def load(model, path):
    ms.load_param_into_net(model, ms.load_checkpoint(path))
    return model


def snapshot(model, optimizer, path):
    torch.save({"model": model.parameters_dict(), "optim": optimizer.parameters_dict()}, path)
