// hipSOLVER's own API (not the hipsolverDn* compatibility API) on the way to cuSOLVER.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdio>

const char* status_name(cusolverStatus_t s)
{
    switch(s)
    {
        case CUSOLVER_STATUS_SUCCESS: return "success";
        case CUSOLVER_STATUS_NOT_INITIALIZED: return "not initialized";
        case ((cusolverStatus_t)27): return "null handle";
        case ((cusolverStatus_t)28): return "invalid enum";
        case ((cusolverStatus_t)29): return "unknown";
        default: return "other";
    }
}

int solve(double* A, double* B, int n, int* ipiv, int* info)
{
    cusolverDnHandle_t handle;
    if(cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
        return 1;
    int lwork_getrf = 0, lwork_getrs = 0, lwork_potrs = 0;
    ferry::cuda_compat::solver_lwork_bytes<double>(cusolverDnDgetrf_bufferSize(handle, n, n, A, n, &lwork_getrf), &lwork_getrf);
    (*(&lwork_getrs) = 0, CUSOLVER_STATUS_SUCCESS);
    const int lwork = lwork_getrf > lwork_getrs ? lwork_getrf : lwork_getrs;
    double* work = nullptr;
    cudaMalloc(&work, sizeof(double) * lwork);
    cusolverDnDgetrf(handle, n, n, A, n, work, ipiv, info);
    cusolverDnDgetrs(handle, CUBLAS_OP_N, n, 1, A, n, ipiv, B, n, info);

    (*(&lwork_potrs) = 0, CUSOLVER_STATUS_SUCCESS);
    cusolverDnDpotrs(handle, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info);

    int lwork_svd = 0;
    ferry::cuda_compat::solver_lwork_bytes<double>(cusolverDnDgesvd_bufferSize(handle, n, n, &lwork_svd), &lwork_svd);

    syevjInfo_t params;
    cusolverDnCreateSyevjInfo(&params);
    cusolverDnXsyevjSetTolerance(params, 1e-7);
    cusolverDnXsyevjSetMaxSweeps(params, 100);
    int lwork_syevj = 0;
    double* W = nullptr;
    ferry::cuda_compat::solver_lwork_bytes<double>(cusolverDnDsyevj_bufferSize(handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, A, n, W,
                               &lwork_syevj, params), &lwork_syevj);
    cusolverDnDestroySyevjInfo(params);

    std::size_t lwork_gels = 0;
    cusolverDnDDgels_bufferSize(handle, n, n, 1, A, n, B, n, B, n, nullptr, &lwork_gels);

    cudaFree(work);
    std::printf("%s\n", status_name(cusolverDnDestroy(handle)));
    return 0;
}
