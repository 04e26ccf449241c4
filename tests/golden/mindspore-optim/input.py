import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR


def setup(model, lr):
    criterion = nn.CrossEntropyLoss()
    mse = nn.MSELoss(reduction="sum")
    sgd = optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    adam = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-8)
    ada = optim.Adadelta(model.parameters(), lr=1.0)
    sched = StepLR(sgd, step_size=1, gamma=0.7)
    return criterion, mse, sgd, adam, ada, sched
