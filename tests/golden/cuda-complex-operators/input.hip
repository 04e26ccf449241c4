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

// A product by operator is the complex product in HIP: reported, not made componentwise.
hipDoubleComplex scale(hipDoubleComplex a, hipDoubleComplex b)
{
    return hipCmul(a, b);
}

hipDoubleComplex twice(hipDoubleComplex a, hipDoubleComplex b)
{
    hipDoubleComplex c = a * b;
    return hipCadd(c, c);
}
