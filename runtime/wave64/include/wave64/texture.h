// wave64 runtime: CUDA arrays, texture objects and surface objects (both APIs' names).
//
// A texture object reads an array (cudaMallocArray), a linear buffer or a pitched 2-D buffer
// through the sampler the CUDA guide describes: unnormalized or normalized coordinates; address
// modes wrap, mirror (normalized coordinates only, as on hardware: unnormalized ones clamp),
// clamp and border (zero); point or linear filtering, linear with the hardware's 8-bit fraction
// for the weights (CUDA guide, "Linear Filtering"), texel centres at i + 0.5; read mode element
// type, or normalized float for 8- and 16-bit integer channels. tex1Dfetch, tex1D, tex2D, tex3D
// in their template (`tex2D<float>(obj, x, y)`) and pointer (`tex2D(&v, obj, x, y)`) forms.
// Surfaces: surf1D/2Dread and surf1D/2Dwrite on arrays, x in bytes, boundary modes zero, clamp
// and trap. Not modelled (a static_assert names them): texture references, layered and cubemap
// textures, mipmaps, 3-D arrays.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "wave64/vector_types.h"

namespace w64::api {

enum class ChanKind : int { Signed = 0, Unsigned = 1, Float = 2, NoKind = 3 };  // (not None: an X11 macro)

struct ArrayStore {
  int x, y, z, w;  // bits per channel (the channel format)
  ChanKind kind;
  std::size_t width, height, depth;
  std::size_t texel;  // bytes per element
  std::size_t pitch;  // bytes per row
  unsigned char* data;
};

// What a sampler reads: memory, its layout and format, and the texture description.
struct TexView {
  const unsigned char* data = nullptr;
  std::size_t width = 0, height = 1, depth = 1;  // in texels
  std::size_t pitch = 0;                         // bytes per row
  std::size_t slice = 0;                         // bytes per 2-D slice
  int bits[4] = {0, 0, 0, 0};
  ChanKind kind = ChanKind::Float;
  int channels = 1;
  std::size_t texel = 4;
  int address[3] = {1, 1, 1};  // cudaTextureAddressMode: 0 wrap, 1 clamp, 2 mirror, 3 border
  bool linear_filter = false;
  bool normalized_read = false;
  bool normalized_coords = false;
  float border[4] = {0, 0, 0, 0};
};

// The components of a texel or of a vector type T: scalar type and count.
template <class T>
struct Components {
  using scalar = T;
  static constexpr int n = 1;
};
#define W64_TEX_COMPONENTS(V, S, N) \
  template <>                       \
  struct Components<V> {            \
    using scalar = S;               \
    static constexpr int n = N;     \
  };
#define W64_TEX_VEC(P, S)        \
  W64_TEX_COMPONENTS(P##1, S, 1) \
  W64_TEX_COMPONENTS(P##2, S, 2) \
  W64_TEX_COMPONENTS(P##4, S, 4)
W64_TEX_VEC(char, signed char)
W64_TEX_VEC(uchar, unsigned char)
W64_TEX_VEC(short, short)
W64_TEX_VEC(ushort, unsigned short)
W64_TEX_VEC(int, int)
W64_TEX_VEC(uint, unsigned int)
W64_TEX_VEC(float, float)
#undef W64_TEX_VEC
#undef W64_TEX_COMPONENTS

// One channel of the stored texel as float: the value itself, or normalized to [0, 1] / [-1, 1].
inline float channel_value(const TexView& t, const unsigned char* texel, int c) {
  const int bits = t.bits[c];
  std::size_t off = 0;
  for (int i = 0; i < c; ++i) off += static_cast<std::size_t>(t.bits[i] / 8);
  const unsigned char* p = texel + off;
  auto norm = [&](double v, double max) { return static_cast<float>(t.normalized_read ? v / max : v); };
  switch (t.kind) {
    case ChanKind::Float:
      if (bits == 32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
      }
      break;
    case ChanKind::Unsigned:
      if (bits == 8) return norm(*p, 255.0);
      if (bits == 16) {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return norm(v, 65535.0);
      }
      if (bits == 32) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return static_cast<float>(v);
      }
      break;
    case ChanKind::Signed:
      if (bits == 8) return std::max(-1.0f, norm(static_cast<signed char>(*p), 127.0));
      if (bits == 16) {
        std::int16_t v;
        std::memcpy(&v, p, 2);
        return std::max(-1.0f, norm(v, 32767.0));
      }
      if (bits == 32) {
        std::int32_t v;
        std::memcpy(&v, p, 4);
        return static_cast<float>(v);
      }
      break;
    default: break;
  }
  return 0.0f;
}

// An integer texel coordinate after the address mode; -1 when it is outside (border).
inline long long address(long long i, std::size_t n, int mode, bool normalized) {
  const long long size = static_cast<long long>(n);
  if (size <= 0) return -1;
  if (!normalized && (mode == 0 || mode == 2)) mode = 1;  // wrap/mirror need normalized coordinates
  switch (mode) {
    case 0: return ((i % size) + size) % size;
    case 2: {
      const long long m = ((i % (2 * size)) + 2 * size) % (2 * size);
      return m < size ? m : 2 * size - 1 - m;
    }
    case 3: return i < 0 || i >= size ? -1 : i;
    default: return i < 0 ? 0 : (i >= size ? size - 1 : i);
  }
}

inline const unsigned char* texel_at(const TexView& t, long long x, long long y, long long z) {
  if (x < 0 || y < 0 || z < 0) return nullptr;
  return t.data + static_cast<std::size_t>(z) * t.slice + static_cast<std::size_t>(y) * t.pitch +
         static_cast<std::size_t>(x) * t.texel;
}

inline void read_channels(const TexView& t, const unsigned char* texel, float out[4]) {
  for (int c = 0; c < 4; ++c) out[c] = texel ? (c < t.channels ? channel_value(t, texel, c) : 0.0f) : t.border[c];
}

// The texel at float coordinates (dims 1..3) as up to four floats, filtered as `t` says.
inline void sample(const TexView& t, int dims, float x, float y, float z, float out[4]) {
  const float c[3] = {x, y, z};
  const std::size_t n[3] = {t.width, t.height, t.depth};
  float u[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) u[d] = t.normalized_coords ? c[d] * static_cast<float>(n[d]) : c[d];
  if (!t.linear_filter) {
    long long i[3] = {0, 0, 0};
    for (int d = 0; d < dims; ++d)
      i[d] = address(static_cast<long long>(std::floor(u[d])), n[d], t.address[d], t.normalized_coords);
    read_channels(t, (i[0] < 0 || i[1] < 0 || i[2] < 0) ? nullptr : texel_at(t, i[0], i[1], i[2]), out);
    return;
  }
  // Linear: the 2^dims neighbours of u - 0.5, weights with 8 fraction bits (as the hardware).
  long long lo[3] = {0, 0, 0};
  float frac[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    const float b = u[d] - 0.5f;
    const float f = std::floor(b);
    lo[d] = static_cast<long long>(f);
    frac[d] = std::round((b - f) * 256.0f) / 256.0f;
  }
  for (int k = 0; k < 4; ++k) out[k] = 0.0f;
  for (int corner = 0; corner < (1 << dims); ++corner) {
    float w = 1.0f;
    long long i[3] = {0, 0, 0};
    for (int d = 0; d < dims; ++d) {
      const int hi = corner >> d & 1;
      w *= hi ? frac[d] : 1.0f - frac[d];
      i[d] = address(lo[d] + hi, n[d], t.address[d], t.normalized_coords);
    }
    if (w == 0.0f) continue;
    float v[4];
    read_channels(t, (i[0] < 0 || i[1] < 0 || i[2] < 0) ? nullptr : texel_at(t, i[0], i[1], i[2]), v);
    for (int k = 0; k < 4; ++k) out[k] += w * v[k];
  }
}

// The result type T from the sampled channels: element-type reads of an unfiltered texel whose
// size is T's are copied bit for bit (integers stay exact); the rest converts channel by channel.
template <class T>
inline T texel_result(const TexView& t, const unsigned char* raw, const float v[4]) {
  T r{};
  if (raw && !t.linear_filter && !t.normalized_read && sizeof(T) == t.texel) {
    std::memcpy(&r, raw, sizeof(T));
    return r;
  }
  using S = typename Components<T>::scalar;
  S* p = reinterpret_cast<S*>(&r);
  for (int c = 0; c < Components<T>::n; ++c) p[c] = static_cast<S>(v[c]);
  return r;
}

// The raw texel an unfiltered read lands on (for the bit-exact copy), or null.
inline const unsigned char* point_texel(const TexView& t, int dims, float x, float y, float z) {
  if (t.linear_filter) return nullptr;
  const float c[3] = {x, y, z};
  const std::size_t n[3] = {t.width, t.height, t.depth};
  long long i[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    const float u = t.normalized_coords ? c[d] * static_cast<float>(n[d]) : c[d];
    i[d] = address(static_cast<long long>(std::floor(u)), n[d], t.address[d], t.normalized_coords);
    if (i[d] < 0) return nullptr;
  }
  return texel_at(t, i[0], i[1], i[2]);
}

template <class T>
inline T tex_read(const TexView* t, int dims, float x, float y = 0, float z = 0) {
  float v[4];
  sample(*t, dims, x, y, z, v);
  return texel_result<T>(*t, point_texel(*t, dims, x, y, z), v);
}

}  // namespace w64::api
