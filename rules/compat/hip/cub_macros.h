// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/cub_macros.h.
// CUB's arithmetic helper macros (cub/util_macro.cuh: CUB_MAX, CUB_MIN, CUB_QUOTIENT_FLOOR,
// CUB_QUOTIENT_CEILING, CUB_ROUND_UP_NEAREST, CUB_ROUND_DOWN_NEAREST), which hipCUB does not define
// (checked: hipCUB of ROCm 5.2 to 6.2). Same arguments and results as CUB's; each macro is
// defined only where nothing defines it yet.
// Define FERRY_COMPAT_NO_CUB_MACROS if your hipCUB provides them itself.
#pragma once

#if !defined(FERRY_COMPAT_NO_CUB_MACROS)
#ifndef CUB_MAX
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#endif
#ifndef CUB_MIN
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#endif
#ifndef CUB_QUOTIENT_FLOOR
#define CUB_QUOTIENT_FLOOR(x, y) ((x) / (y))
#endif
#ifndef CUB_QUOTIENT_CEILING
#define CUB_QUOTIENT_CEILING(x, y) (((x) + (y) - 1) / (y))
#endif
#ifndef CUB_ROUND_UP_NEAREST
#define CUB_ROUND_UP_NEAREST(x, y) ((((x) + (y) - 1) / (y)) * (y))
#endif
#ifndef CUB_ROUND_DOWN_NEAREST
#define CUB_ROUND_DOWN_NEAREST(x, y) (((x) / (y)) * (y))
#endif
#endif  // FERRY_COMPAT_NO_CUB_MACROS
