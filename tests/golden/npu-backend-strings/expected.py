# Backend and device names in strings: rewritten where they provably reach torch.distributed or a
# device, diagnosed where they do not.
import argparse
import os

import torch
import torch_npu
import torch.distributed as dist
import torch.cuda.nccl as nccl

parser = argparse.ArgumentParser()
parser.add_argument("--dist-backend", default="hccl", type=str, choices=["hccl", "gloo"],
                    help="nccl for GPUs, gloo for CPUs")
parser.add_argument("--device", default="npu", help="device to train on")
parser.add_argument("--log-backend", default="nccl")  # not a process-group backend
args = parser.parse_args()


def setup(rank: int, world_size: int, fallback: str = "nccl", local_device="npu:0"):
    os.environ["HCCL_SOCKET_IFNAME"] = "eth0"
    os.environ.setdefault("TORCH_HCCL_ASYNC_ERROR_HANDLING", "1")
    os.environ["NCCL_IB_DISABLE"] = "1"
    if args.dist_backend == "hccl" and not dist.is_hccl_available():
        raise RuntimeError("NCCL is not available")
    dist.init_process_group(backend=args.dist_backend, rank=rank, world_size=world_size)
    backend = "hccl" if torch.npu.is_available() else "gloo"
    group = dist.new_group(ranks=[0, 1], backend=backend)
    if dist.get_backend() == "hccl" or dist.get_backend() == dist.Backend.HCCL:
        print("collectives on", nccl.version())
    device = torch.device(args.device)
    if "npu" in args.device:
        torch.npu.set_device(rank)
    snapshot_device = f"npu:{rank}"
    state = torch.load("snapshot.pt", map_location=snapshot_device)
    label = "nccl"
    return group, device, state, label


dist.init_process_group("cpu:gloo,npu:hccl")
