// Kernels declared as static member functions: hipcc takes them, nvcc does not.
#include <cuda_runtime.h>

#include <cstdint>

namespace sums
{
template <typename T, typename Op> class block_sum;
// ferry: nvcc takes no __global__ member function; block_sum::first_pass is launched through this kernel
template <typename T, typename Op>
__global__ void block_sum_first_pass(const T* in, T* out, std::size_t n) { block_sum<T, Op>::first_pass(in, out, n); }

template <typename T, typename Op> class block_sum;
// ferry: nvcc takes no __global__ member function; block_sum::tiled is launched through this kernel
template <typename T, typename Op, unsigned Block, unsigned Warp>
__global__ __launch_bounds__(Block) void block_sum_tiled(const T* in, T* out, std::size_t n) { block_sum<T, Op>::template tiled<Block, Warp>(in, out, n); }

template<typename T, typename Op = int>
class block_sum
{
public:
    explicit block_sum(T* out) : out_(out) {}

    void run(const T* in, std::size_t n, cudaStream_t stream)
    {
        block_sum_first_pass<T, Op><<<dim3(1), dim3(64), 64 * sizeof(T), stream>>>(in, out_, n);
        block_sum_tiled<T, Op, 64, 32><<<dim3(1), dim3(64), 0, stream>>>(in, out_, n);
        block_sum_tiled<T, Op, 128, 32><<<1, 128, 0, stream>>>(in, out_, n);
        cudaFuncAttributes attr;
        (void)cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(&block_sum_first_pass<T, Op>));
    }

private:
    T* out_;
    static constexpr int scale = 2;

    public:  // ferry: called by the kernel block_sum_first_pass
    __device__ static void first_pass(const T* in, T* out, std::size_t n)
    {
        extern __shared__ unsigned char raw[];
        T* part = reinterpret_cast<T*>(raw);
        part[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] * scale : T{};
        __syncthreads();
        if(threadIdx.x == 0)
            out[0] = part[0];
    }

    private:
    public:  // ferry: called by the kernel block_sum_tiled
    template<unsigned Block, unsigned Warp>
    __device__ static void tiled(const T* in, T* out, std::size_t n)
    {
        __shared__ T tile[Block / Warp];
        tile[threadIdx.x / Warp] = threadIdx.x < n ? in[threadIdx.x] : T{};
        __syncthreads();
        if(threadIdx.x == 0)
            out[0] = tile[0];
    }
private:
};

// ferry: nvcc takes no __global__ member function; counter::bump is launched through this kernel
__global__ void counter_bump(int* c, cudaStream_t unused_stream_handle);

// ferry: nvcc takes no __global__ member function; counter::step is launched through this kernel
template <int Step>
__global__ void counter_step(int* c);

struct counter
{
    static __device__ void bump(int* c, cudaStream_t unused_stream_handle) { atomicAdd(c, 1); }
    template<int Step>
    static __device__ void step(int* c) { atomicAdd(c, Step); }
};

__global__ void counter_bump(int* c, cudaStream_t unused_stream_handle) { counter::bump(c, unused_stream_handle); }

template <int Step>
__global__ void counter_step(int* c) { counter::template step<Step>(c); }

} // namespace sums

void launch_all(float* out, const float* in, int* c)
{
    sums::block_sum<float> s(out);
    s.run(in, 64, 0);
    sums::counter_bump<<<dim3(1), dim3(1), 0, 0>>>(c, nullptr);
    sums::counter_step<3><<<1, 1>>>(c);
    sums::counter_step<4><<<1, 1>>>(c);
}
