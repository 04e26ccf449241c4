// HIP's complex types are float2/double2 with operators (hip_complex.h); CUDA's are plain
// structs. Host code compares results through a difference of elements of std::vector.
#include <hip/hip_complex.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <vector>

int count_errors(const std::vector<hipFloatComplex>& got, const std::vector<hipFloatComplex>& want, float eps)
{
    int errors = 0;
    for(size_t i = 0; i < got.size(); ++i)
    {
        const hipFloatComplex diff = got[i] - want[i];
        errors += std::fabs(diff.x) > eps || std::fabs(diff.y) > eps;
    }
    return errors;
}

// A product or quotient by operator is the complex one in HIP: two complex operands become
// cuCmul/cuCdivf (a compound assignment too); by a number it scales, as the componentwise
// operator does; an expression operand is reported.
hipDoubleComplex twice(hipDoubleComplex a, hipDoubleComplex b)
{
    hipDoubleComplex c = a * b;
    return c * 2.0;
}

hipFloatComplex ratio(const std::vector<hipFloatComplex>& num, const std::vector<hipFloatComplex>& den, size_t i)
{
    return num[i] / den[i];
}

void accumulate(hipFloatComplex& acc, hipFloatComplex x)
{
    acc *= x;
}

hipFloatComplex sum_times(hipFloatComplex a, hipFloatComplex b, hipFloatComplex c)
{
    return (a + b) * c;
}
