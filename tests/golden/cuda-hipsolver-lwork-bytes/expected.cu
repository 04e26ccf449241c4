// hipSOLVER on AMD reports and takes workspace sizes in bytes; this code allocates what the
// query reports, as code tested on AMD does. cuSOLVER counts elements.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cusolverDn.h>

#define CHECK(call)                                   \
    do                                                \
    {                                                 \
        if((call) != CUSOLVER_STATUS_SUCCESS)        \
            return 1;                                 \
    } while(0)

struct Workspace
{
    int   bytes = 0;
    void* ptr   = nullptr;
};

int eigen(cusolverDnHandle_t handle, double* A, double* W, int n, int* info)
{
    int lwork = 0;
    CHECK(ferry::cuda_compat::solver_lwork_bytes<double>(cusolverDnDsyevd_bufferSize(handle,
                                     CUSOLVER_EIG_MODE_VECTOR,
                                     CUBLAS_FILL_MODE_UPPER,
                                     n,
                                     A,
                                     n,
                                     W,
                                     &lwork), &lwork));
    double* work = nullptr;
    cudaMalloc(&work, lwork);
    CHECK(cusolverDnDsyevd(handle,
                          CUSOLVER_EIG_MODE_VECTOR,
                          CUBLAS_FILL_MODE_UPPER,
                          n,
                          A,
                          n,
                          W,
                          work,
                          ferry::cuda_compat::solver_lwork_elements<double>(lwork),
                          info));
    cudaFree(work);
    return 0;
}

// The compatibility API, a size kept in a struct, and a complex routine.
int generalized(cusolverDnHandle_t handle, cuFloatComplex* A, cuFloatComplex* B, float* W, int n, int* info)
{
    Workspace ws;
    syevjInfo_t params;
    cusolverDnCreateSyevjInfo(&params);
    ferry::cuda_compat::solver_lwork_bytes<cuComplex>(cusolverDnChegvj_bufferSize(handle,
                                 CUSOLVER_EIG_TYPE_1,
                                 CUSOLVER_EIG_MODE_VECTOR,
                                 CUBLAS_FILL_MODE_UPPER,
                                 n,
                                 A,
                                 n,
                                 B,
                                 n,
                                 W,
                                 &ws.bytes,
                                 params), &ws.bytes);
    cudaMalloc(&ws.ptr, ws.bytes);
    const cusolverStatus_t s = cusolverDnChegvj(handle,
                                                  CUSOLVER_EIG_TYPE_1,
                                                  CUSOLVER_EIG_MODE_VECTOR,
                                                  CUBLAS_FILL_MODE_UPPER,
                                                  n,
                                                  A,
                                                  n,
                                                  B,
                                                  n,
                                                  W,
                                                  static_cast<cuFloatComplex*>(ws.ptr),
                                                  ferry::cuda_compat::solver_lwork_elements<cuComplex>(ws.bytes),
                                                  info,
                                                  params);
    cusolverDnDestroySyevjInfo(params);
    cudaFree(ws.ptr);
    return s == CUSOLVER_STATUS_SUCCESS ? 0 : 1;
}

// A query in a macro's definition: reported, left as it is.
#define QUERY_EIGEN(h, n, A, W, size)                                                          \
    cusolverDnSsyevd_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, A, n, W, size)

// A size the pass cannot copy (a call): reported, left as it is.
int* size_slot(int* sizes, int i) { return sizes + i; }

int singular(cusolverDnHandle_t handle, float* A, int m, int n, int* sizes)
{
    CHECK(cusolverDnSgesvd_bufferSize(handle, m, n, size_slot(sizes, 0)));
    return 0;
}
