# shellcheck shell=bash
# Sourced by the GPU scripts (gpu_comm.sh, gpu_training.sh, gpu_multi.sh): the environment every
# process on the shared GPU machines must have, and the mpirun that passes it on.
# NVLink multicast stays off in NCCL, PyTorch and NVSHMEM: a program using it can take the host's
# shared GPUs out of service (the device tool's KINDS.md).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# mpirun with those variables (and LD_LIBRARY_PATH) exported to every rank; callers add -np and
# any further -x. NCCL_* and OMPI_MCA_* variables set before sourcing travel too.
gpu_mpirun=(mpirun --oversubscribe --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH
            -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS)
for _v in $(env | grep -E '^(NCCL|OMPI_MCA)_' | cut -d= -f1); do gpu_mpirun+=(-x "$_v"); done
unset _v
