"""Process start-up under mpirun: MPI first (ferry-comm's transport), then torch.distributed.

Ranks come from MPI, so MPI and torch.distributed agree on them by construction. Rank 0 binds a
free TCP port and broadcasts host:port over MPI; every rank then joins torch.distributed with a
tcp:// init method. No MASTER_PORT guessing, no clash between concurrent jobs on one host.
"""
import atexit
import socket

import torch
import torch.distributed as dist

from . import _ext

_state = {"comm": None}


def communicator():
    """The ferry-comm communicator over MPI_COMM_WORLD (after init_distributed)."""
    if _state["comm"] is None:
        raise RuntimeError("ferry_comm: call ferry_comm.init_distributed() first")
    return _state["comm"]


def _free_port(host):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def init_distributed(backend="gloo", timeout_s=120.0, host=None):
    """Initialise MPI and torch.distributed with the same ranks; returns (rank, world_size).

    host: the address rank 0 listens on for torch's rendezvous (default: 127.0.0.1 when all ranks
    share one node, else rank 0's hostname).
    """
    rank, size = _ext.mpi_init()
    comm = _ext.Communicator(timeout_s=timeout_s)
    _state["comm"] = comm
    atexit.register(finalize)
    me = socket.gethostname().encode()
    # All ranks on one node (then rank 0 listens on loopback)? Count the ranks whose hostname is
    # rank 0's: every rank gets the same count, so every rank takes the same decision.
    root_name = comm.broadcast_bytes(me if rank == 0 else b"", 0)
    same = torch.tensor([1 if root_name == me else 0], dtype=torch.int64)
    comm.allreduce(same.data_ptr(), 1, "i64", "none")
    if host is None:
        host = "127.0.0.1" if int(same[0]) == size else root_name.decode()
    addr = b""
    if rank == 0:
        addr = f"{host}:{_free_port(host if host == '127.0.0.1' else '')}".encode()
    addr = comm.broadcast_bytes(addr, 0).decode()
    if not dist.is_initialized():
        import datetime
        dist.init_process_group(backend, init_method=f"tcp://{addr}", rank=rank, world_size=size,
                                timeout=datetime.timedelta(seconds=timeout_s))
    return rank, size


def finalize():
    """Tear down torch.distributed, then ferry-comm and MPI (registered with atexit)."""
    if dist.is_initialized():
        dist.destroy_process_group()
    if _state["comm"] is not None:
        _state["comm"].close()
        _state["comm"] = None
    _ext.mpi_finalize()
