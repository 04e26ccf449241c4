// One kernel's region form (src/wave64/regions.h): the Splitter walks the kernel's statements,
// deciding where regions end (barriers, warp operations), which locals every lane computes alike,
// which live across regions, and which lanes run a region (the lane-condition form: warp
// operations under an `if` whose condition differs between lanes); then writes the code
// (region_emit.cpp). A Fail thrown anywhere keeps the kernel on the fiber path.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "wave64/region_syntax.h"

namespace ferry::wave64::regions {

// Why a kernel keeps the fiber path (empty: nothing to split), and where.
struct Fail {
  std::string why;
  std::size_t at;
};

// A warp operation inside a statement that splits there.
struct OpUse {
  std::size_t name = 0, open = 0, close = 0;  // the call: name ( ... )
  int slot = 0;
  std::size_t first = 0;  // the call's first token: `name`, or its first qualifier (`wmma::name`)
};

// What the region form of a kernel is made of, in order.
struct Piece {
  enum Kind { Stmt, Put, Take, Text } kind = Stmt;
  const struct Stmt* s = nullptr;
  std::vector<OpUse> ops;
  std::string text;  // Text: written as is, with the line of `at`
  std::size_t at = 0;
  std::size_t last = npos;  // Text: the code tokens [at, last] it is made of (npos: unknown)
};
struct Region {
  std::string guard;  // lanes that run it: a condition over per-lane flags (empty: all)
  std::vector<Piece> pieces;
  std::set<std::string> names;  // identifiers its code names
  bool lambda = false;          // holds a return: runs inside [&]{ }() per lane
};
struct Node {
  enum Kind { Reg, Run, Open, Close, Uni, Step } kind = Reg;
  int region = -1;
  std::vector<int> slots;
  // Open: `for (...) {`, `while (...) {`, `if (...) {`, `} else {`; Uni: a declaration; Step: a
  // statement run once for the block where it stands (`if (uniform) break;`, `param op= uniform;`)
  std::string head;
};

// A call without side effects: math, loads (region_chunk.cpp).
[[nodiscard]] bool pure_call(std::string_view n);

// Whether code tokens [first, last] cannot reach a barrier or warp operation (FileScope::range_safe).
using SafeRange = std::function<bool(std::size_t, std::size_t, std::string*)>;

// Everything about one kernel; a Fail thrown anywhere keeps the fiber path.
class Splitter {
 public:
  Splitter(const CodeView& v, SafeRange safe, std::set<std::string> params, std::size_t body_open,
           std::size_t body_close)
      : v_(v), safe_(std::move(safe)), params_(std::move(params)), open_(body_open), close_(body_close) {}

  // The region-form code (the statements of `if (::w64::rg::enter()) { ... }`), or a Fail.
  std::string build(const std::vector<Stmt>& body, const std::string& quoted);
  std::string quoted_;
  // Accumulation loops run in chunks of iterations over the lanes (region_chunk.cpp); off: they
  // stay inside their region (a retry when the chunked form fails).
  void set_chunk_loops(bool on) { chunk_loops_ = on; }
  [[nodiscard]] int chunked() const { return chunks_; }

 private:
  const CodeView& v_;
  SafeRange safe_;
  std::set<std::string> params_;
  std::size_t open_, close_;
  std::vector<Region> regions_;
  std::vector<Node> nodes_;
  std::vector<const Stmt*> hoisted_;  // __shared__ and constant declarations
  std::set<std::string> hoisted_names_;
  std::set<std::string> loop_vars_;  // of the loops and ifs between regions
  std::set<std::string> all_loop_vars_;
  std::set<std::string> shared_names_;
  std::set<std::string> shared_arrays_;  // their address is alike for every lane; a scalar's value is not
  std::map<std::string, std::vector<std::pair<const Stmt*, int>>> decls_;  // name -> (statement, region)
  std::set<std::string> declared_anywhere_;
  int slots_ = 0;
  int cur_ = -1;                         // region being filled
  std::vector<std::string> preds_;       // conditions of the ifs the lanes diverged in
  std::set<std::string> uniform_names_;  // locals every lane computes alike, declared between regions
  std::set<std::string> block_names_;    // of them, cooperative groups' thread_block objects
  int flags_ = 0;                        // per-lane flags of those conditions
  int loop_depth_ = 0;                   // split loops around the statement being walked
  std::set<std::string> in_place_;       // operands of in-place warp operations (stay put across regions)
  std::set<const Stmt*> block_steps_;    // `param op= uniform;` at the body's top level
  bool chunk_loops_ = true;
  int chunks_ = 0;                       // loops chunked (w64_fN)
  std::deque<std::vector<Stmt>> owned_;  // one-statement bodies as lists (pieces point into them)
  const std::vector<Stmt>& one(const Stmt& s) {
    owned_.push_back({s});
    return owned_.back();
  }

  bool is(std::size_t i, std::string_view t) const { return v_.is(i, t); }
  std::string tx(std::size_t i) const { return std::string(v_.text(i)); }
  [[noreturn]] void fail(std::string why, std::size_t at) const { throw Fail{std::move(why), at}; }

  // region_split.cpp: the walk
  bool has_barrier(const Stmt& s) const;
  bool contains_sync(const Stmt& s) const;
  bool block_sync(const Stmt& s) const;
  bool uniform_expr(std::size_t first, std::size_t last) const;
  Region& region();
  void close_region() { cur_ = -1; }
  void names_of(std::size_t first, std::size_t last, std::set<std::string>& into) const;
  std::optional<Decl> as_decl(const Stmt& s) const { return decl_of_stmt(v_, s); }
  void check_escapes(const Stmt& s, bool in_loop, bool in_switch) const;
  void check_uniform(std::size_t first, std::size_t last, const std::set<std::string>& own) const;
  void check_not_modified(const std::string& name, std::size_t first, std::size_t last) const;
  void walk(const std::vector<Stmt>& list, bool top);
  void lane_condition(const Stmt& s, std::size_t hfirst, std::size_t hlast);
  void split_at_warp_ops(const Stmt& s);
  void add_plain(const Stmt& s);
  std::set<std::string> inner_locals(const Stmt& s) const;
  bool block_step(const Stmt& s);
  std::string dynamic_shared_pointer(const Stmt& s) const;
  void find_param_steps(const std::vector<Stmt>& body);

  // region_chunk.cpp: accumulation loops
  bool pure_expr(std::size_t first, std::size_t last) const;
  bool lane_local(const Stmt& s, std::set<std::string>& written, std::set<std::string>& carried) const;
  bool chunk_loop(const Stmt& s);

  // region_emit.cpp: the code
  std::string text_with(std::size_t first, std::size_t last, const std::vector<OpUse>& ops, bool take) const;
  std::string line(std::size_t ci, const std::string& quoted) const {
    return "\n#line " + std::to_string(v_.code(ci).line) + " \"" + quoted + "\"\n";
  }
  std::string piece_text(const Piece& p, const std::set<std::string>& promoted, const std::string& quoted) const;
  void collect_declared(const std::vector<Stmt>& body);
  std::set<std::string> promoted_locals(std::map<std::string, const Stmt*>& decl_of);
  std::string lanes_declaration(const std::string& name, const Stmt& s, const std::string& quoted) const;
  bool address_taken(const std::string& name) const;
  bool may_write(const Region& g, const std::string& name) const;
};

}  // namespace ferry::wave64::regions
