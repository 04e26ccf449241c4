// HIP's vector types have arithmetic operators (HIP_vector_type's), CUDA's do not. A CUDA helper
// header ported by `migrate --to hip` keeps its own operators but guards the ones HIP's headers
// define (FRY4103): on the HIP side the runtime's must serve those uses, and the helper's own
// non-template operators must still win where both exist (as with HIP's templates).
#include <hip/hip_runtime.h>

#include "check.h"

// The shape of a ported helper_math.h: `operator+=(float3&, float3)` guarded, the rest kept.
inline __host__ __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define this [FRY4103]
inline __host__ __device__ void operator+=(float3& a, float3 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
}
#endif
// A user's scalar product that differs from HIP's on purpose: the non-template one must win.
inline __host__ __device__ float3 operator*(float3 a, float s) {
  return make_float3(a.x * s, a.y * s, a.z * s + 1000.0f);
}

// A tree of float3 sums in shared memory with the guarded operator (dxtc's colorSums).
__global__ void color_sums(const float3* in, float3* out) {
  __shared__ float3 sums[16];
  const int idx = threadIdx.x;
  sums[idx] = in[idx];
  __syncthreads();
  for (int d = 8; d > 0; d >>= 1) {
    float3 other = sums[idx ^ d];
    __syncthreads();
    sums[idx] += other;
    __syncthreads();
  }
  out[idx] = sums[idx];
}

int main() {
  float3 *in, *out;
  if (hipMallocManaged(&in, 16 * sizeof(float3)) != hipSuccess) return 2;
  if (hipMallocManaged(&out, 16 * sizeof(float3)) != hipSuccess) return 2;
  for (int i = 0; i < 16; ++i) in[i] = make_float3(float(i), float(2 * i), float(3 * i));
  hipLaunchKernelGGL(color_sums, dim3(1), dim3(16), 0, 0, in, out);
  if (hipDeviceSynchronize() != hipSuccess) return 2;
  for (int i = 0; i < 16; ++i) {
    CHECK_EQ(out[i].x, 120.0f, "lane %d x", i);
    CHECK_EQ(out[i].y, 240.0f, "lane %d y", i);
    CHECK_EQ(out[i].z, 360.0f, "lane %d z", i);
  }

  // HIP's operators on the host side too, every form.
  float3 a = make_float3(1, 2, 3), b = make_float3(4, 5, 6);
  a += b;
  CHECK_EQ(a.z, 9.0f, "+= vector");
  a -= 1.0f;
  CHECK_EQ(a.x, 4.0f, "-= scalar");
  a *= make_float3(2, 2, 2);
  CHECK_EQ(a.y, 12.0f, "*= vector");
  a /= 2;
  CHECK_EQ(a.y, 6.0f, "/= int scalar");
  CHECK_EQ((b - a).x, 0.0f, "binary - (template)");
  CHECK_EQ((2.0f * b).z, 12.0f, "scalar * vector");
  CHECK_EQ((b * 2.0f).z, 1012.0f, "the user's non-template operator* wins");
  CHECK_EQ((a + b).x, 8.0f, "the user's operator+");
  CHECK_EQ((-b).y, -5.0f, "unary -");
  int4 i4 = make_int4(1, 2, 3, 4);
  i4 += make_int4(1, 1, 1, 1);
  i4 = i4 * 3;
  CHECK_EQ(i4.w, 15, "int4");
  CHECK_EQ(i4 == make_int4(6, 9, 12, 15), true, "==");
  CHECK_EQ(i4 != make_int4(6, 9, 12, 15), false, "!=");
  uchar4 c4 = make_uchar4(250, 1, 2, 3);
  c4 += make_uchar4(10, 1, 1, 1);
  CHECK_EQ(c4.x, 4, "uchar wraps as HIP's does");
  hipFree(in);
  hipFree(out);
  return finish("hip vector ops");
}
