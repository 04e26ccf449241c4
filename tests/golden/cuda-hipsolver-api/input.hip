// hipSOLVER's own API (not the hipsolverDn* compatibility API) on the way to cuSOLVER.
#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>

#include <cstdio>

const char* status_name(hipsolverStatus_t s)
{
    switch(s)
    {
        case HIPSOLVER_STATUS_SUCCESS: return "success";
        case HIPSOLVER_STATUS_NOT_INITIALIZED: return "not initialized";
        case HIPSOLVER_STATUS_HANDLE_IS_NULLPTR: return "null handle";
        case HIPSOLVER_STATUS_INVALID_ENUM: return "invalid enum";
        case HIPSOLVER_STATUS_UNKNOWN: return "unknown";
        default: return "other";
    }
}

int solve(double* A, double* B, int n, int* ipiv, int* info)
{
    hipsolverHandle_t handle;
    if(hipsolverCreate(&handle) != HIPSOLVER_STATUS_SUCCESS)
        return 1;
    int lwork_getrf = 0, lwork_getrs = 0, lwork_potrs = 0;
    hipsolverDgetrf_bufferSize(handle, n, n, A, n, &lwork_getrf);
    hipsolverDgetrs_bufferSize(handle, HIPSOLVER_OP_N, n, 1, A, n, ipiv, B, n, &lwork_getrs);
    const int lwork = lwork_getrf > lwork_getrs ? lwork_getrf : lwork_getrs;
    double* work = nullptr;
    hipMalloc(&work, sizeof(double) * lwork);
    hipsolverDgetrf(handle, n, n, A, n, work, lwork, ipiv, info);
    hipsolverDgetrs(handle, HIPSOLVER_OP_N, n, 1, A, n, ipiv, B, n, work, lwork, info);

    hipsolverDpotrs_bufferSize(handle, HIPSOLVER_FILL_MODE_LOWER, n, 1, A, n, B, n, &lwork_potrs);
    hipsolverDpotrs(handle, HIPSOLVER_FILL_MODE_LOWER, n, 1, A, n, B, n, work, lwork_potrs, info);

    int lwork_svd = 0;
    hipsolverDgesvd_bufferSize(handle, 'N', 'N', n, n, &lwork_svd);

    hipsolverSyevjInfo_t params;
    hipsolverCreateSyevjInfo(&params);
    hipsolverXsyevjSetTolerance(params, 1e-7);
    hipsolverXsyevjSetMaxSweeps(params, 100);
    int lwork_syevj = 0;
    double* W = nullptr;
    hipsolverDsyevj_bufferSize(handle, HIPSOLVER_EIG_MODE_VECTOR, HIPSOLVER_FILL_MODE_UPPER, n, A, n, W,
                               &lwork_syevj, params);
    hipsolverDestroySyevjInfo(params);

    std::size_t lwork_gels = 0;
    hipsolverDDgels_bufferSize(handle, n, n, 1, A, n, B, n, B, n, &lwork_gels);

    hipFree(work);
    std::printf("%s\n", status_name(hipsolverDestroy(handle)));
    return 0;
}
