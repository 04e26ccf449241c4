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

// A product or quotient by operator is the complex one in HIP: two complex operands become
// cuCmul/cuCdivf (a compound assignment too); by a number it scales, as the componentwise
// operator does; an expression operand is reported.
cuDoubleComplex twice(cuDoubleComplex a, cuDoubleComplex b)
{
    cuDoubleComplex c = cuCmul(a, b);
    return c * 2.0;
}

cuFloatComplex ratio(const std::vector<cuFloatComplex>& num, const std::vector<cuFloatComplex>& den, size_t i)
{
    return cuCdivf(num[i], den[i]);
}

void accumulate(cuFloatComplex& acc, cuFloatComplex x)
{
    acc = cuCmulf(acc, x);
}

cuFloatComplex sum_times(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c)
{
    return (a + b) * c;
}
