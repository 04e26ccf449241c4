import mindspore as ms
from mindspore import ops


def train_epoch(model, loader, optimizer, log):
    model.set_train(mode=True)
    total = 0.0
    def forward_fn(inputs, labels):
        logits = model(inputs)
        loss = ops.cross_entropy(logits, labels)
        return loss, logits
    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
    for step, (inputs, labels) in enumerate(loader):
        (loss, logits), grads = grad_fn(inputs, labels)
        optimizer(grads)
        total += loss.item()
        if step % 10 == 0:
            log(step, loss.item(), logits.argmax(dim=1))
    return total


def evaluate(model, loader):
    model.set_train(mode=False)
    correct = 0
    for inputs, labels in loader:
        pred = model(inputs).argmax(dim=1)
        correct += pred.eq(labels).sum().item()
    return correct


def predict(model, x):
    return model(x)


def accumulate(model, batches, optimizer):
    for x, y in batches:
        loss = ops.mse_loss(model(x), y)
        loss.backward()
    optimizer.step()


def train_clipped(model, loader, optimizer, clip):
    seen = 0
    def forward_fn_2(inputs, labels):
        loss = ops.cross_entropy(model(inputs), labels)
        return loss
    grad_fn_2 = ms.value_and_grad(forward_fn_2, None, optimizer.parameters)
    for inputs, labels in loader:
        loss, grads_2 = grad_fn_2(inputs, labels)
        seen += inputs.shape[0]
        grads_2 = ops.clip_by_global_norm(grads_2, clip)
        optimizer(grads_2)
    return seen


def step_once(model, x, y, optimizer):
    def forward_fn_3():
        out = model(x)
        loss = ops.mse_loss(out, y)
        return loss, out
    grad_fn_3 = ms.value_and_grad(forward_fn_3, None, optimizer.parameters, has_aux=True)
    (loss, out), grads_3 = grad_fn_3()
    optimizer(grads_3)
    return loss.item(), out


def policy_update(log_probs, optimizer):
    optimizer.zero_grad()
    loss = ops.cat(log_probs).sum()
    loss.backward()
    optimizer.step()
