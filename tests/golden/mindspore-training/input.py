import torch
import torch.nn as nn
import torch.nn.functional as F


def train_epoch(model, loader, optimizer, log):
    model.train()
    total = 0.0
    for step, (inputs, labels) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(inputs)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        total += loss.item()
        if step % 10 == 0:
            log(step, loss.item(), logits.argmax(dim=1))
    return total


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for inputs, labels in loader:
            pred = model(inputs).argmax(dim=1)
            correct += pred.eq(labels).sum().item()
    return correct


@torch.no_grad()
def predict(model, x):
    return model(x)


def accumulate(model, batches, optimizer):
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        loss.backward()
    optimizer.step()


def train_clipped(model, loader, optimizer, clip):
    seen = 0
    for inputs, labels in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(inputs), labels)
        loss.backward()
        seen += inputs.size(0)
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
    return seen


def step_once(model, x, y, optimizer):
    optimizer.zero_grad()
    out = model(x)
    loss = F.mse_loss(out, y)
    loss.backward()
    optimizer.step()
    return loss.item(), out


def policy_update(log_probs, optimizer):
    optimizer.zero_grad()
    loss = torch.cat(log_probs).sum()
    loss.backward()
    optimizer.step()
