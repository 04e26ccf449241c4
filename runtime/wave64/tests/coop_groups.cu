// The cooperative-groups test of the wave64 runtime through the CUDA API (warp 32).
#define W64_TEST_CUDA 1
#include "coop_groups.hip"
