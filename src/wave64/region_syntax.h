// The region pass's reading of kernel code (src/wave64/regions.h): which names are barriers,
// warp operations and calls that cannot reach one; kernel bodies as statements; declarations as
// far as the pass needs them. All of it reads a lex::CodeView (code-token indices throughout).
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lex/code_view.h"

namespace ferry::wave64::regions {

using lex::CodeView;
constexpr std::size_t npos = static_cast<std::size_t>(-1);

// ---- names -----------------------------------------------------------------------------------

// Statements that split regions and need nothing between them.
extern const std::set<std::string_view> kBarriers;
// Warp operations the region form computes between two regions (runtime: warp_cuda.h, warp_hip.h).
extern const std::set<std::string_view> kWarpOps;
// Warp operations whose operands the region form reads and writes in place (their addresses are
// recorded per lane): wmma's mma_sync.
[[nodiscard]] bool in_place_op(std::string_view n);
// The warp matrix functions each lane runs for its own elements in the runtime's model
// (wave64/wmma.h): fill_fragment, load_matrix_sync, store_matrix_sync; and the namespaces that
// qualify them (`wmma::`, `nvcuda::wmma::`, `rocwmma::`).
[[nodiscard]] bool wmma_lane_call(std::string_view n);
[[nodiscard]] bool wmma_namespace(std::string_view n);
// The first token of the name at `i` with its qualifiers (`nvcuda::wmma::mma_sync`: `nvcuda`).
[[nodiscard]] std::size_t qualified_first(const CodeView& v, std::size_t i);
// Other names that wait for other lanes: a kernel using one anywhere keeps the fiber path.
[[nodiscard]] bool other_sync_name(std::string_view n);
[[nodiscard]] bool sync_word(std::string_view n);
// Calls a region may make without risk of reaching a barrier or warp operation: the runtime's
// intrinsics (every `__name` not above), math, atomics, vector constructors, printf.
[[nodiscard]] bool safe_external_call(std::string_view n);
// Keywords and type names that look like calls (`if (`, `sizeof(`, `float(`).
[[nodiscard]] bool is_keyword_call(std::string_view n);
[[nodiscard]] bool is_type_keyword(std::string_view n);
[[nodiscard]] bool is_assign_op(std::string_view t);
// `x.name`, `p->name`, `ns::name` or `::name`: not a local of the kernel.
[[nodiscard]] inline bool member_or_scoped(const CodeView& v, std::size_t i) {
  return v.is_member_name(i) || (i > 0 && v.is(i - 1, "::"));
}

// ---- statements ------------------------------------------------------------------------------

enum class SK { Simple, Compound, If, For, While, Do, Switch, Return, Break, Continue, Other, Directive, Empty };

struct Stmt {
  SK kind = SK::Simple;
  std::size_t first = 0, last = 0;          // code tokens, inclusive
  std::size_t hopen = npos, hclose = npos;  // the ( ) of if / for / while / switch
  std::vector<Stmt> kids;                   // Compound: its statements; If: then [, else]; loops: body
  bool has_else = false;
};

// The statement starting at code token `i`, ending before `end`; `i` moves past it. nullopt when
// it is not in a form the pass reads.
[[nodiscard]] std::optional<Stmt> parse_statement(const CodeView& v, std::size_t& i, std::size_t end);
// The statements of code tokens [from, to); false when one is not read.
[[nodiscard]] bool parse_statements(const CodeView& v, std::size_t from, std::size_t to, std::vector<Stmt>& out);

// A declaration statement, as far as the pass needs one.
struct Declarator {
  std::size_t name = npos;
  std::size_t ptr_first = npos, ptr_last = npos;    // `*`/`&` before the name
  std::size_t dims_first = npos, dims_last = npos;  // `[..][..]` after it
  std::size_t init_first = npos, init_last = npos;  // after `=`
  bool paren_or_brace_init = false;
};
struct Decl {
  std::size_t type_first = 0, type_last = 0;
  std::vector<Declarator> ds;
};

[[nodiscard]] std::optional<Decl> decl_of_stmt(const CodeView& v, const Stmt& s);
// The declaration in the init-statement of `for (T v = init; ...)`, if any.
[[nodiscard]] std::optional<Decl> for_init_decl(const CodeView& v, const Stmt& for_stmt);

// ---- edits -----------------------------------------------------------------------------------

// Replacements of code-token ranges [first, last], in source order; one that overlaps the one
// before it is dropped.
using TokenEdits = std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>>;
[[nodiscard]] std::string apply_edits(const CodeView& v, const TokenEdits& edits);

}  // namespace ferry::wave64::regions
