// The PyTorch → MindSpore converter of one Python file (convert.cpp says what it does), shared by
// its units, one concern each:
//   convert.cpp          the entry point, the pass order (run), edits, diagnostics, tree helpers
//   convert_imports.cpp  torch imports read into aliases; the MindSpore import block written
//   convert_walk.cpp     the walk: nn.Module / Dataset classes, references to torch names
//   convert_calls.cpp    calls: keyword operations of a row, methods, special calls, DataLoader
//   convert_training.cpp the training step (zero_grad/backward/step, AMP autocast and GradScaler)
//   convert_context.cpp  DistributedDataParallel, no_grad, self-assignments, the device context
// Internal to src/targets/mindspore/.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyparse/edit_helpers.h"
#include "pyparse/imports.h"
#include "pyparse/tree.h"
#include "targets/mindspore/mapping.h"
#include "targets/mindspore/mindspore_target.h"

namespace ferry::targets::mindspore::convert_detail {

using migrate::FileMigration;

// A name the output spells through the import block: "\x01mindspore.nn.Dense\x02" in edit texts
// until the imports are decided (finish_imports), then "nn.Dense" or "mindspore.nn.Dense".
inline std::string emit(std::string_view ms_name) { return "\x01" + std::string(ms_name) + "\x02"; }

inline std::string last_component(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

struct LocalEdit {
  std::uint32_t begin, end;
  std::string text;
  std::uint32_t seq;
};

class Converter {
 public:
  Converter(FileMigration& f, const pyparse::Tree& t, const Tables& tab, Settings s)
      : f_(f), t_(t), tab_(tab), s_(std::move(s)), src_(f.source()) {}

  void run();

 private:
  // ----- edits ------------------------------------------------------------------------------
  bool add(std::uint32_t b, std::uint32_t e, std::string text);
  bool replace_node(int n, std::string text) { return add(t_.at(n).begin, t_.at(n).end, std::move(text)); }
  // The source of [b, e) with the edits inside it applied.
  std::string render(std::uint32_t b, std::uint32_t e) const;
  std::string render(int n) const { return render(t_.at(n).begin, t_.at(n).end); }
  // Replaces [b, e) by `text`, dropping the edits inside it (the caller rendered them into text).
  bool replace_region(std::uint32_t b, std::uint32_t e, std::string text);

  void commit();

  // ----- diagnostics and counts -------------------------------------------------------------
  void diag(Diag code, int n, std::string msg, std::string hint);
  // TensorFlow / Keras uses are counted apart ("tf_same", "tf_diff", ...), so that the PyTorch figures
  // of a file that uses both stay the PyTorch figures.
  static std::string family(std::string_view name, std::string_view f);
  void converted(const Mapping& m, int n);
  void unconverted(std::string_view family) { f_.count_unconverted(family); }

  // ----- tree helpers -----------------------------------------------------------------------
  std::string_view text(int n) const { return t_.text(n); }
  std::string_view type(int n) const { return t_.type(n); }
  bool excluded(int n) const { return excluded_.count(t_.at(n).line) > 0; }
  std::uint32_t line_start(std::uint32_t at) const { return pyparse::line_start(src_, at); }
  std::string indent_of(std::uint32_t at) const { return pyparse::indent_of(src_, at); }
  // [line start, end of line incl. '\n') of a statement alone on its lines, or nullopt.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> whole_lines(int n) const;

  // Removes statement `n` (its whole lines). A block whose statements all go keeps a `pass`
  // (finish_blocks). `region`: drop the edits inside it (they were rendered nowhere else).
  bool remove_statement(int n, bool region);
  void finish_blocks();
  // The call of a `with` statement of one item whose body is on its own lines, or -1.
  int with_call(int x) const;

  // ----- imports ----------------------------------------------------------------------------
  // PyTorch, and TensorFlow / Keras (their names spelled canonically: tf.keras.layers.Dense).
  static bool torch_module(std::string_view q);

  using ImportStmt = pyparse::ImportStmt;

  void collect_imports(int n);

  void collect_identifiers();

  // The torch name a reference resolves to ("nn.Linear" → "torch.nn.Linear"), or "".
  std::string resolve(int n) const;
  // The alias a resolved reference starts with.
  std::string head_alias(int n) const { return pyparse::Imports::head_alias(t_, n); }
  void keep_alias(int n) { kept_aliases_.insert(head_alias(n)); }

  // ----- classes ----------------------------------------------------------------------------
  void collect_cell_classes();

  // ----- the walk ---------------------------------------------------------------------------
  void visit(int n);

  void class_definition(int n);

  // A resolved torch reference `n` (the function of `call` when call >= 0).
  void reference(int n, const std::string& q, int call_node);

  void unsupported(int n, const std::string& q, const Mapping* m, int call_node);

  // ----- arguments --------------------------------------------------------------------------
  using Args = pyparse::CallArgs;
  Args arguments(int call_node) const { return pyparse::call_arguments(t_, call_node); }
  // Removes the arguments `gone` of the list with their commas: each run of neighbours at once.
  void drop_arguments(const Args& a, const std::set<int>& gone);
  std::string expand(const std::string& expr, const Args& a) const;

  // Applies the row's keyword operations to the call's arguments, if every keyword the result
  // passes is a parameter of `ms` in the API table; false (nothing changed, FRY1705) otherwise.
  bool rewrite_arguments(int call_node, const Mapping& m, const std::string& ms);

  // ----- calls ------------------------------------------------------------------------------
  void call(int n);

  const Mapping* method_row(std::string_view name) const;

  bool is_device_arg(int n) const;

  // x.m(...) with a method row; true when handled.
  bool method_call(int n, int fn);

  // A string literal in the quote the current context allows.
  std::string quoted(const std::string& s) const { return quote_ + s + quote_; }
  std::string device_literal(int arg) const;

  // Calls whose conversion is structural; true when handled (converted or diagnosed).
  bool special_call(int n, const Mapping& m);

  bool data_loader(int n, const Args& a, const Mapping& m);

  // ----- the training step ------------------------------------------------------------------
  struct Step {
    int block = -1, loop = -1;                            // the block holding the step; the loop around it (or -1)
    int zero = -1, first = -1, backward = -1, step = -1;  // statements
    std::vector<int> forward;                             // statements between zero_grad and backward
    std::string loss, optimizer;
    int clip = -1;  // clip_grad_norm_(params, max_norm) between backward and step
    std::string max_norm;
    // mixed precision: `with autocast():` among the forward statements, a GradScaler
    int amp_with = -1;     // the with statement (its body joins the forward statements)
    std::string scaler;    // `scaler` of scaler.scale(loss).backward(), or empty
    int scaler_ctor = -1;  // the GradScaler(...) call that creates it
    std::string scale_value = "2**16", scale_factor = "2", scale_window = "2000";
    int update = -1, unscale = -1;  // scaler.update(), scaler.unscale_(opt) statements
    std::string net;                // the network the forward calls (wrapped by auto_mixed_precision)
    int net_stmt = -1;              // the statement that builds it, or -1
  };

  // The call of `with torch.autocast(...)` (torch.cuda.amp.autocast, torch.amp.autocast) with one
  // item and a body on its own lines, or -1.
  int autocast_call(int x) const;
  // Why autocast(...)'s arguments keep it from becoming auto_mixed_precision(net, 'O1'), or "".
  std::string autocast_args_problem(int call_node) const;
  // The GradScaler(...) call assigned to `name` anywhere in the file, or -1.
  int find_scaler_ctor(int n, const std::string& name) const;
  // The statement `name = <call>` that builds a network (not a loss), anywhere in the file, or -1.
  int find_net_stmt(int n, const std::string& name) const;
  // GradScaler(init_scale=, growth_factor=, growth_interval=) → DynamicLossScaler's values, or why not.
  std::string scaler_args(int call_node, Step& st) const;

  // A statement between backward() and step() that the step can keep: it neither reads gradients
  // nor steps; clip_grad_norm_(params, max_norm) is recognised (it becomes clip_by_global_norm).
  bool between_statement(int st, int& clip, std::string& max_norm) const;

  // "opt.zero_grad()" etc.: the call of an expression statement, its receiver and method name.
  bool stmt_method(int st, std::string& receiver, std::string& method, int* call_out = nullptr) const;

  void plan_training(int n);

  void plan_block(int block);

  std::vector<std::string> assigned_names(int st) const;
  void read_names(int x, std::vector<std::string>& out) const;
  std::string fresh(const std::string& base);
  // Every line of `text` loses the prefix `from` (as much of it as it has) and gains `to`; the first
  // line too when `first_too`, else it is taken as it is (it starts after its indentation).
  static std::string reindent(const std::string& text, const std::string& from, const std::string& to, bool first_too);

  void apply_training();

  // ----- DistributedDataParallel ---------------------------------------------------------------
  // `m = DDP(net, device_ids=...)`: MindSpore's data parallelism is a context, not a wrapper; the
  // statement statements that wrap a name (or attribute) are planned here, before visit, so that
  // visit leaves their call alone.
  void plan_ddp(int n);
  void apply_ddp();

  // `x, y = x.to(device), y.to(device)` became `x, y = x, y`: the statement goes.
  void drop_self_assignments(int n);

  // The body of `with torch.no_grad():` (inference_mode, enable_grad), or -1.
  int no_grad_body(int x) const;

  // with torch.no_grad(): body → body, one level less indented (inner statements first).
  void apply_no_grad();

  // ms.set_device("Ascend") (2.5+) or ms.set_context(device_target=...) at the top of the
  // `if __name__ == "__main__":` block of a script that used devices.
  void set_device_context();

  // ----- the import block -------------------------------------------------------------------
  struct Spelling {
    std::string prefix, alias, import_line, fallback_import;
  };
  std::vector<Spelling> spellings() const;

  void finish_imports();
  static bool prefix_of(const std::string& p, const std::string& n);
  std::string best_prefix(const std::string& n) const;
  static void collect_emitted(const std::string& text, std::set<std::string>& out);
  std::string spell(const std::string& n) const;
  std::string spell_all(const std::string& text) const;

  FileMigration& f_;
  const pyparse::Tree& t_;
  const Tables& tab_;
  Settings s_;
  std::string_view src_;
  std::vector<LocalEdit> edits_;
  std::uint32_t seq_ = 0;
  std::set<std::uint32_t> excluded_;
  pyparse::Imports imp_;  // torch imports and aliases
  std::set<std::string> kept_aliases_, used_aliases_, other_identifiers_, taken_, used_ms_;
  std::set<std::string> cell_classes_, optimizers_;
  std::set<int> cell_class_nodes_, consumed_, scalers_done_;
  std::set<std::string> nets_done_;
  struct Ddp {
    int stmt, call, net;
  };
  std::vector<Ddp> ddp_;
  bool ddp_context_done_ = false;
  std::map<int, std::string> cell_method_;                  // Cell class node -> forward | call
  std::map<std::string, std::string> cell_method_by_name_;  // the same by class name
  std::vector<int> current_cell_, no_grad_withs_;
  std::vector<Step> steps_;
  std::vector<std::pair<int, std::string>> step_failures_;
  bool device_used_ = false;
  bool torch_file_ = false;  // some import binds a PyTorch module
  char quote_ = '"';         // the quote a string literal written now uses
  std::map<std::string, bool> short_;
  std::map<int, std::vector<std::uint32_t>> removed_;  // block -> removal edits (seq) of its statements
};

}  // namespace ferry::targets::mindspore::convert_detail
