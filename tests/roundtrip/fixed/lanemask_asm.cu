// A lane-mask helper in inline PTX (written for this test): the hip target rewrites the asm into
// `(1ull << __lane_id()) - 1`, and the wave64 fix must plan for that rewrite on the first
// migration as a second migration of the output does (a fixed point).
__device__ __forceinline__ unsigned int lanes_below()
{
    unsigned int ret;
    asm ("mov.u32 %0, %%lanemask_lt;" : "=r"(ret) );
    return ret;
}
