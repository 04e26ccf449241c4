// hipSOLVER on AMD reports and takes workspace sizes in bytes; this code allocates what the
// query reports, as code tested on AMD does. cuSOLVER counts elements.
#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>

#define CHECK(call)                                   \
    do                                                \
    {                                                 \
        if((call) != HIPSOLVER_STATUS_SUCCESS)        \
            return 1;                                 \
    } while(0)

struct Workspace
{
    int   bytes = 0;
    void* ptr   = nullptr;
};

int eigen(hipsolverHandle_t handle, double* A, double* W, int n, int* info)
{
    int lwork = 0;
    CHECK(hipsolverDsyevd_bufferSize(handle,
                                     HIPSOLVER_EIG_MODE_VECTOR,
                                     HIPSOLVER_FILL_MODE_UPPER,
                                     n,
                                     A,
                                     n,
                                     W,
                                     &lwork));
    double* work = nullptr;
    hipMalloc(&work, lwork);
    CHECK(hipsolverDsyevd(handle,
                          HIPSOLVER_EIG_MODE_VECTOR,
                          HIPSOLVER_FILL_MODE_UPPER,
                          n,
                          A,
                          n,
                          W,
                          work,
                          lwork,
                          info));
    hipFree(work);
    return 0;
}

// The compatibility API, a size kept in a struct, and a complex routine.
int generalized(hipsolverDnHandle_t handle, hipFloatComplex* A, hipFloatComplex* B, float* W, int n, int* info)
{
    Workspace ws;
    hipsolverSyevjInfo_t params;
    hipsolverDnCreateSyevjInfo(&params);
    hipsolverDnChegvj_bufferSize(handle,
                                 HIPSOLVER_EIG_TYPE_1,
                                 HIPSOLVER_EIG_MODE_VECTOR,
                                 HIPSOLVER_FILL_MODE_UPPER,
                                 n,
                                 A,
                                 n,
                                 B,
                                 n,
                                 W,
                                 &ws.bytes,
                                 params);
    hipMalloc(&ws.ptr, ws.bytes);
    const hipsolverStatus_t s = hipsolverDnChegvj(handle,
                                                  HIPSOLVER_EIG_TYPE_1,
                                                  HIPSOLVER_EIG_MODE_VECTOR,
                                                  HIPSOLVER_FILL_MODE_UPPER,
                                                  n,
                                                  A,
                                                  n,
                                                  B,
                                                  n,
                                                  W,
                                                  static_cast<hipFloatComplex*>(ws.ptr),
                                                  ws.bytes,
                                                  info,
                                                  params);
    hipsolverDnDestroySyevjInfo(params);
    hipFree(ws.ptr);
    return s == HIPSOLVER_STATUS_SUCCESS ? 0 : 1;
}

// A query in a macro's definition: reported, left as it is.
#define QUERY_EIGEN(h, n, A, W, size)                                                          \
    hipsolverSsyevd_bufferSize(h, HIPSOLVER_EIG_MODE_VECTOR, HIPSOLVER_FILL_MODE_UPPER, n, A, n, W, size)

// A size the pass cannot copy (a call): reported, left as it is.
int* size_slot(int* sizes, int i) { return sizes + i; }

int singular(hipsolverHandle_t handle, float* A, int m, int n, int* sizes)
{
    CHECK(hipsolverSgesvd_bufferSize(handle, 'A', 'A', m, n, size_slot(sizes, 0)));
    return 0;
}
