"""The DDP communication hook: each gradient bucket is averaged by ferry-comm's allreduce.

Method string (one argument selects codec, error feedback and algorithm):

    CODEC[+ef][@ALGORITHM]      e.g. "none", "bf16", "int8+ef", "eb:rel=1e-3", "int4:block=32+ef@ring"

CODEC is a ferry-comm codec spec (docs/comm.md), "+ef" keeps an error-feedback residual per bucket
(x' = x + r; send C(x'); r = x' - D(C(x'))), ALGORITHM names an allreduce algorithm (ring,
recursive_doubling, rsag); without it ferry-comm picks one by message size.
"""
from dataclasses import dataclass

import torch

from .dist import communicator

_DTYPES = {torch.float32: "f32", torch.float64: "f64", torch.bfloat16: "bf16", torch.float16: "f16",
           torch.int32: "i32", torch.int64: "i64", torch.int8: "i8", torch.uint8: "u8"}


@dataclass(frozen=True)
class Method:
    codec: str = "none"
    error_feedback: bool = False
    algorithm: str = ""

    def __str__(self):
        return self.codec + ("+ef" if self.error_feedback else "") + (f"@{self.algorithm}" if self.algorithm else "")


def parse_method(text):
    """'int8+ef@rsag' -> Method('int8', True, 'rsag'). Codec specs are checked by ferry-comm itself."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("ferry_comm: empty method; expected CODEC[+ef][@ALGORITHM], e.g. 'int8+ef@rsag'")
    text = text.strip()
    codec, _, algorithm = text.partition("@")
    ef = False
    if codec.endswith("+ef"):
        codec, ef = codec[:-3], True
    if "+" in codec or not codec:
        raise ValueError(f"ferry_comm: bad method '{text}'; expected CODEC[+ef][@ALGORITHM]")
    if ef and codec == "none":
        raise ValueError("ferry_comm: error feedback (+ef) needs a lossy codec")
    return Method(codec, ef, algorithm)


class FerryHookState:
    """State of the hook: the method, the communicator and one error-feedback residual per bucket.

    Residuals are keyed by the bucket's index and the identity of its parameters, so DDP's bucket
    rebuild after the first iteration (which regroups parameters) starts fresh residuals instead of
    adding stale ones to the wrong gradients.
    """

    def __init__(self, method, comm=None, device_path=True, transport="auto"):
        self.method = method if isinstance(method, Method) else parse_method(method)
        self.comm = comm if comm is not None else communicator()
        # CUDA float32 buckets go through ferry-comm's DeviceComm when the extension was built with
        # CUDA (NCCL for "none" where each rank has its own GPU, else MPI staging; the GPU codecs for
        # int8 and eb): no round trip through host tensors. device_path=False stages them instead.
        self.device_path = device_path and hasattr(self.comm, "allreduce_device")
        self.transport = transport
        self.world_size = self.comm.size
        self.residuals = {}
        self.calls = 0
        self.bytes_sent = 0
        self.last_stats = None

    def _residual(self, bucket, flat):
        key = (bucket.index(), tuple(p.data_ptr() for p in bucket.parameters()))
        r = self.residuals.get(key)
        if r is None or r.numel() != flat.numel() or r.device != flat.device:
            self.residuals = {k: v for k, v in self.residuals.items() if k[0] != key[0]}
            r = torch.zeros(flat.numel(), dtype=torch.float32, device=flat.device)
            self.residuals[key] = r
        return r

    def allreduce_mean_(self, flat, bucket=None):
        """Average `flat` over the ranks in place through ferry-comm; returns `flat`."""
        lossy = self.method.codec != "none"
        if flat.dtype not in _DTYPES:
            raise TypeError(f"ferry_comm: gradients of dtype {flat.dtype} are not supported")
        if lossy and flat.dtype != torch.float32:
            raise TypeError(f"ferry_comm: codec {self.method.codec} needs float32 gradients, got {flat.dtype}")
        on_device = self.device_path and flat.is_cuda and flat.dtype == torch.float32 and flat.is_contiguous()
        # Other device tensors are staged through host memory (MPI here is not CUDA-aware).
        buf = flat if on_device or (flat.device.type == "cpu" and flat.is_contiguous()) \
            else flat.detach().to("cpu").contiguous()
        buf.div_(self.world_size)
        residual = 0
        if self.method.error_feedback and bucket is not None:
            residual = self._residual(bucket, buf).data_ptr()
        if on_device:
            torch.cuda.current_stream(flat.device).synchronize()  # the gradients are complete
            with torch.cuda.device(flat.device):
                stats = self.comm.allreduce_device(buf.data_ptr(), buf.numel(), self.method.codec,
                                                   self.transport, residual)
        else:
            stats = self.comm.allreduce(buf.data_ptr(), buf.numel(), _DTYPES[buf.dtype], self.method.codec,
                                        self.method.algorithm, residual)
        self.calls += 1
        self.bytes_sent += stats["bytes_sent"]
        self.last_stats = stats
        if buf is not flat:
            flat.copy_(buf)
        return flat


def ferry_allreduce_hook(state, bucket):
    """DDP comm hook (register_comm_hook(state, ferry_allreduce_hook)).

    The allreduce runs synchronously on the thread that runs the backward pass (GIL released) and
    the returned future is already complete, so communication does not overlap the rest of the
    backward pass; docs/comm-training.md says why and what an asynchronous version would need.
    """
    flat = bucket.buffer()
    state.allreduce_mean_(flat, bucket)
    fut = torch.futures.Future()
    fut.set_result(flat)
    return fut


def register(ddp_model, method, comm=None, device_path=True, transport="auto"):
    """Register the ferry-comm hook on a DistributedDataParallel model; returns its state."""
    state = FerryHookState(method, comm, device_path, transport)
    ddp_model.register_comm_hook(state, ferry_allreduce_hook)
    return state
