# Strings and comments that mention cuda are text, not code: only device arguments change.
import torch
import torch_npu

DOC = """torch.cuda.synchronize() and x.cuda() in a docstring stay as they are,
and so does device='cuda' here."""
raw = r'cuda:\d+'
data = b'cuda'
msg = f"running on {torch.cuda.device_count()} devices: {'cuda'!r}"
msg2 = f'{x.cuda() if x is not None else "cuda"}'  # the call inside the f-string is left alone
path = 'cuda' \
    + "/tmp"
t = torch.empty(3, device=f"npu:{0}")
u = torch.empty(3, device='''cuda''')  # triple-quoted: left alone
v = {'device': 'cuda'}  # a dict value is not a device argument
