from mindspore import nn
from torch.optim.lr_scheduler import StepLR


def setup(model, lr):
    criterion = nn.CrossEntropyLoss()
    mse = nn.MSELoss(reduction="sum")
    sgd = nn.SGD(model.trainable_params(), learning_rate=lr, momentum=0.9, weight_decay=1e-4)
    adam = nn.Adam(model.trainable_params(), learning_rate=1e-3, eps=1e-8)
    ada = nn.Adadelta(model.trainable_params(), learning_rate=1.0)
    sched = StepLR(sgd, step_size=1, gamma=0.7)
    return criterion, mse, sgd, adam, ada, sched
