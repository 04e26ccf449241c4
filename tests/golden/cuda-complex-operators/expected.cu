// HIP's complex types are float2/double2 with operators (hip_complex.h); CUDA's are plain
// structs. Host code compares results through a difference of elements of std::vector.
#include "ferry/compat_cuda_vector.h" /* ferry-hip: (none) */
#include <cuComplex.h>
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

int count_errors(const std::vector<cuFloatComplex>& got, const std::vector<cuFloatComplex>& want, float eps)
{
    int errors = 0;
    for(size_t i = 0; i < got.size(); ++i)
    {
        const cuFloatComplex diff = got[i] - want[i];
        errors += std::fabs(diff.x) > eps || std::fabs(diff.y) > eps;
    }
    return errors;
}

// A product by operator is the complex product in HIP: reported, not made componentwise.
cuDoubleComplex scale(cuDoubleComplex a, cuDoubleComplex b)
{
    return cuCmul(a, b);
}

cuDoubleComplex twice(cuDoubleComplex a, cuDoubleComplex b)
{
    cuDoubleComplex c = a * b;
    return cuCadd(c, c);
}
