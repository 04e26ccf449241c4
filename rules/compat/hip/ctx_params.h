// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/ctx_params.h.
// CUDA 13's CUctxCreateParams (cuCtxCreate's execution-affinity and CIG parameters), which no HIP
// has: code that declares an empty one for cuCtxCreate compiles; Ferry drops the argument from the
// call, since hipCtxCreate takes (ctx, flags, device) (FRY4108). The fields are opaque here.
#pragma once

typedef struct CUctxCreateParams_st {
  void* execAffinityParams;
  int numExecAffinityParams;
  void* cigParams;
} CUctxCreateParams;
