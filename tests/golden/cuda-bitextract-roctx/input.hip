// AMD's bit-field extract in a kernel, and roctx ranges around the launch (written for this test).
#include <hip/hip_runtime.h>
#include <roctracer/roctx.h>

__global__ void nibble(const unsigned* in, unsigned* out, unsigned long long* wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __bitextract_u32(in[i], 8, 4);
    wide[i] = __bitextract_u64(static_cast<unsigned long long>(in[i]) << 32, 36, 8);
  }
}

void run(const unsigned* in, unsigned* out, unsigned long long* wide, int n) {
  roctxRangePush("nibble");
  roctx_range_id_t id = roctxRangeStart("whole");
  hipLaunchKernelGGL(nibble, dim3((n + 255) / 256), dim3(256), 0, 0, in, out, wide, n);
  roctxMark("launched");
  roctxRangeStop(id);
  roctxRangePop();
}
