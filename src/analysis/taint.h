// The taint of values in a function body: computed from threadIdx / blockDim (a thread value),
// a lane id or warp index (& 31, % 32, >> 5, / 32, __lane_id(), a lane helper), or a ballot.
// Flow-insensitive: a variable has the taint of its latest definition before the use.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "analysis/facts.h"
#include "lex/code_view.h"

namespace ferry::analysis {

enum Taint : unsigned { kNone = 0, kThread = 1, kLane = 2, kBallot = 4 };

// A named warp-width constant (is_warp_width_name) of value 32 or 64, of the file or project.
[[nodiscard]] bool is_warp_const(const FileFacts& facts, std::string_view name);
// Taint of the variable `name` at code index `at`: its latest definition before.
[[nodiscard]] unsigned var_taint(const std::vector<VarDef>& defs, std::string_view name, std::size_t at);
// Taint of the code range [first, last] of a function with definitions `defs`.
[[nodiscard]] unsigned range_taint(const lex::CodeView& v, const FileFacts& facts, const std::vector<VarDef>& defs,
                                   std::size_t first, std::size_t last);
// Whether the file has any token that starts a taint (without one every taint is 0).
[[nodiscard]] bool has_taint_source(const lex::CodeView& v);
// All `name = expr` definitions in a function body (declarations and plain assignments).
[[nodiscard]] std::vector<VarDef> function_defs(const lex::CodeView& v, const FileFacts& facts, const FunctionInfo& fn);

}  // namespace ferry::analysis
