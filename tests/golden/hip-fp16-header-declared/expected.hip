// A header whose `half` is its own type (a storage struct): no fp16 header is added; and one
// that gets cuda_fp16.h through cuda_bf16.h needs none either.
#pragma once
#include <cstdint>

struct half {
  uint16_t bits;
};

inline half make_half_bits(uint16_t b) {
  half h;
  h.bits = b;
  return h;
}
