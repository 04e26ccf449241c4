"""ferry_comm: ferry-comm's compressed MPI allreduce as a PyTorch DDP communication hook.

    import ferry_comm
    ferry_comm.init_distributed()                  # under mpirun: MPI, then torch.distributed (gloo)
    model = DDP(model)
    ferry_comm.register(model, "int8+ef@rsag")     # codec [+ef] [@algorithm], one string

The gradients travel over ferry-comm's MPI communicator (compressed); torch.distributed's process
group is used only by DDP itself (parameter broadcast at construction, bucket rebuilding).
See docs/comm-training.md.
"""
import ctypes
import os

# Open MPI loads its components with dlopen and they resolve symbols of libmpi globally; Python
# loads extension modules RTLD_LOCAL, so make libmpi global first (what mpi4py does too).
for _lib in ("libmpi.so.40", "libmpi.so"):
    try:
        ctypes.CDLL(_lib, mode=ctypes.RTLD_GLOBAL)
        break
    except OSError:
        continue

from . import _ext  # noqa: E402
from ._ext import CommError, UsageError, algorithm_table, roundtrip  # noqa: E402,F401
from .hook import Method, FerryHookState, ferry_allreduce_hook, register, parse_method  # noqa: E402,F401
from .dist import init_distributed, communicator, finalize  # noqa: E402,F401

__all__ = ["init_distributed", "communicator", "finalize", "register", "parse_method", "Method",
           "FerryHookState", "ferry_allreduce_hook", "CommError", "UsageError", "algorithm_table",
           "roundtrip"]
