// Which string literals of a Python file are provably a distributed-backend name or a device, found
// by following names from where torch consumes them back to where the strings are written
// (docs/targets.md#torch_npu):
//
//   sinks   init_process_group(backend) / new_group(backend=...), torch.device(x), t.to(x),
//           autocast(device_type), and keyword arguments named backend / device-like names;
//           a dotted name passed there (args.dist_backend) becomes a tracked name, its last
//           component (dist_backend) a tracked attribute
//   sources a string inside a sink's argument; `T = 's'` (also `T: str = 's'`, `T = 's' if c else
//           'u'`, a keyword or parameter default) for a tracked T; `T == 's'`, `T != 's'`,
//           `T in ('s', ...)`, `'s' in T`; dist.get_backend() == 's'; the default= and choices= of
//           add_argument('--dist-backend', ...) whose dest is a tracked attribute, set_defaults(
//           dest='s'), getattr(x, 'dest', 's')
//   one step of propagation: `T = U` with T tracked makes U tracked too.
// A string that reaches none of these is not provably a backend or device: the caller leaves it
// and may say so.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lex/python_lexer.h"

namespace ferry::targets::torch_npu {

struct StringRoles {
  std::set<std::size_t> backend;  // code indices of String tokens
  std::set<std::size_t> device;
};

// `code` maps code indices (non-trivia tokens) to indices into `toks`.
[[nodiscard]] StringRoles find_string_roles(std::string_view src, const std::vector<lex::py::Token>& toks,
                                            const std::vector<std::size_t>& code);

// Device-like keyword and variable names: device, device_type, map_location, *_device, device_*.
[[nodiscard]] bool is_device_name(std::string_view name);

}  // namespace ferry::targets::torch_npu
