// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/hipsparse.h.
// hipsparseGetErrorName / hipsparseGetErrorString for hipSPARSE before ROCm 6.0, which has no
// function naming a hipsparseStatus_t. From ROCm 6.0 on, hipSPARSE's own are used.
#pragma once
#include <hip/hip_version.h>
#include <hipsparse/hipsparse.h>

#if HIP_VERSION_MAJOR < 6
// The enumerator's name, as cusparseGetErrorName gives CUSPARSE_STATUS_*.
static inline const char* hipsparseGetErrorName(hipsparseStatus_t status) {
  switch (status) {
    case HIPSPARSE_STATUS_SUCCESS: return "HIPSPARSE_STATUS_SUCCESS";
    case HIPSPARSE_STATUS_NOT_INITIALIZED: return "HIPSPARSE_STATUS_NOT_INITIALIZED";
    case HIPSPARSE_STATUS_ALLOC_FAILED: return "HIPSPARSE_STATUS_ALLOC_FAILED";
    case HIPSPARSE_STATUS_INVALID_VALUE: return "HIPSPARSE_STATUS_INVALID_VALUE";
    case HIPSPARSE_STATUS_ARCH_MISMATCH: return "HIPSPARSE_STATUS_ARCH_MISMATCH";
    case HIPSPARSE_STATUS_MAPPING_ERROR: return "HIPSPARSE_STATUS_MAPPING_ERROR";
    case HIPSPARSE_STATUS_EXECUTION_FAILED: return "HIPSPARSE_STATUS_EXECUTION_FAILED";
    case HIPSPARSE_STATUS_INTERNAL_ERROR: return "HIPSPARSE_STATUS_INTERNAL_ERROR";
    case HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case HIPSPARSE_STATUS_ZERO_PIVOT: return "HIPSPARSE_STATUS_ZERO_PIVOT";
    case HIPSPARSE_STATUS_NOT_SUPPORTED: return "HIPSPARSE_STATUS_NOT_SUPPORTED";
    case HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "HIPSPARSE_STATUS_UNKNOWN";
}

// A sentence, as cusparseGetErrorString gives one.
static inline const char* hipsparseGetErrorString(hipsparseStatus_t status) {
  switch (status) {
    case HIPSPARSE_STATUS_SUCCESS: return "success";
    case HIPSPARSE_STATUS_NOT_INITIALIZED: return "hipSPARSE was not initialized";
    case HIPSPARSE_STATUS_ALLOC_FAILED: return "resource allocation failed";
    case HIPSPARSE_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed";
    case HIPSPARSE_STATUS_ARCH_MISMATCH: return "the device architecture is not supported";
    case HIPSPARSE_STATUS_MAPPING_ERROR: return "access to GPU memory failed";
    case HIPSPARSE_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case HIPSPARSE_STATUS_INTERNAL_ERROR: return "an internal hipSPARSE operation failed";
    case HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "the matrix type is not supported";
    case HIPSPARSE_STATUS_ZERO_PIVOT: return "a zero pivot was found";
    case HIPSPARSE_STATUS_NOT_SUPPORTED: return "the operation is not supported";
    case HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "resources are insufficient";
  }
  return "unknown hipSPARSE status";
}
#endif
