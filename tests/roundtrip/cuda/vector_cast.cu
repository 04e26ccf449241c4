// A class that converts to float2: `float2(p)` is a cast in CUDA, not a one-value constructor.
struct Pair {
  float lo, hi;
  __device__ operator float2() const { return make_float2(lo, hi); }
};

__device__ float2 widen(const Pair &p) { return float2(p); }

__global__ void copy_pairs(const Pair *in, float2 *out) { out[threadIdx.x] = widen(in[threadIdx.x]); }
