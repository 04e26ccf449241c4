// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/tile_shfl.h.
// Shuffles of a cooperative-groups tile whose value is a vector or struct type (a uint4, a
// float2): CUDA's thread_block_tile::shfl* take any type, HIP's accept integer and floating
// types only (a static_assert). These move the value one 32-bit word at a time through the
// tile's own shuffle, which is what CUDA does for such types; the lanes and the mask or delta
// mean the same.
#pragma once
#include <hip/hip_cooperative_groups.h>

namespace ferry_compat_tile_shfl {

template <class Tile, class T, class Shuffle>
__device__ inline T by_words(T v, Shuffle shuffle) {
  static_assert(sizeof(T) % sizeof(int) == 0, "ferry/compat/tile_shfl.h: the value must be a whole number of words");
  int words[sizeof(T) / sizeof(int)];
  __builtin_memcpy(words, &v, sizeof(T));
  for (unsigned int i = 0; i < sizeof(T) / sizeof(int); ++i) words[i] = shuffle(words[i]);
  __builtin_memcpy(&v, words, sizeof(T));
  return v;
}

}  // namespace ferry_compat_tile_shfl

template <class Tile, class T>
__device__ inline T ferry_tile_shfl(const Tile& tile, T v, int src_rank) {
  return ferry_compat_tile_shfl::by_words<Tile>(v, [&](int w) { return tile.shfl(w, src_rank); });
}
template <class Tile, class T>
__device__ inline T ferry_tile_shfl_up(const Tile& tile, T v, unsigned int delta) {
  return ferry_compat_tile_shfl::by_words<Tile>(v, [&](int w) { return tile.shfl_up(w, delta); });
}
template <class Tile, class T>
__device__ inline T ferry_tile_shfl_down(const Tile& tile, T v, unsigned int delta) {
  return ferry_compat_tile_shfl::by_words<Tile>(v, [&](int w) { return tile.shfl_down(w, delta); });
}
template <class Tile, class T>
__device__ inline T ferry_tile_shfl_xor(const Tile& tile, T v, unsigned int mask) {
  return ferry_compat_tile_shfl::by_words<Tile>(v, [&](int w) { return tile.shfl_xor(w, mask); });
}
