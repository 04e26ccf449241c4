import torch


def save(model, path):
    torch.save(model.state_dict(), path)


def load(model, path):
    model.load_state_dict(torch.load(path, map_location="cpu"))
    return model


def snapshot(model, optimizer, path):
    torch.save({"model": model.state_dict(), "optim": optimizer.state_dict()}, path)
