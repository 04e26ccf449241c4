// TensorFlow 1.15 / 2.x → TensorFlow's NPU adapter (npu_bridge) for one Python file, on
// tree-sitter-python's tree (pyparse/tree.h) with the imports read by pyparse/imports.h.
//
// Rules are data (rules/tf2npu/*.tsv, each action described there); this file applies them:
//   references  a name that resolves (through the file's imports) to a TensorFlow, Keras or Horovod
//               name is looked up by its canonical spelling (tables.h, canonical()); a call with a
//               row is converted by the row's action; a reference with none is a use that runs as it
//               is on the adapter (counted, left alone)
//   methods     `.batch(...)` and the other ".name" rows apply to a method call on any receiver
//   statements  `x.gpu_options.allow_growth = ...` and the other "=.name" rows remove the assignment
//   imports     a file that got a conversion gets `from npu_bridge.npu_init import *` after its first
//               TensorFlow import; Horovod imports whose every use was converted are removed
// Every keyword a rename leaves must be a parameter of the NPU API (rules/tf_npu/api.tsv), else the
// call stays as written (FRY1720). Each conversion, failure and manual item is one line of the
// file's worklist (success / failed / needs_manual), which the JSON and HTML reports list.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pyparse/edit_helpers.h"
#include "pyparse/imports.h"
#include "pyparse/tree.h"
#include "rewrite/edit_set.h"
#include "targets/tf_npu/tables.h"
#include "targets/tf_npu/tf_npu_target.h"

namespace ferry::targets::tf_npu {
namespace {

using migrate::FileMigration;

constexpr std::string_view kNpuImport = "from npu_bridge.npu_init import *";

bool owned_module(std::string_view q) {
  for (std::string_view p : {"tensorflow", "keras", "horovod.tensorflow", "horovod.keras"})
    if (pyparse::module_under(q, p)) return true;
  return false;
}

class Converter {
 public:
  Converter(FileMigration& f, const pyparse::Tree& t, const Tables& tab, Settings s)
      : f_(f), t_(t), tab_(tab), s_(std::move(s)), src_(f.source()) {}

  void run() {
    excluded_ = pyparse::ignored_lines(t_);
    imp_.collect(t_, t_.root(), owned_module);
    if (imp_.aliases.empty()) return;  // not a TensorFlow file
    for (std::size_t i = 0; i < t_.size(); ++i)
      if (t_.at(static_cast<int>(i)).type == "function_definition")
        defined_functions_.insert(std::string(text(t_.child(static_cast<int>(i), "name"))));
    visit(t_.root());
    if (s_.major == 1) keras_session();
    finish_removals();
    finish_imports();
    for (const rewrite::Edit& e : edits_.edits()) f_.replace_bytes(e.begin, e.end, e.replacement);
  }

 private:
  // ----- tree helpers -----------------------------------------------------------------------
  std::string_view text(int n) const { return t_.text(n); }
  std::string_view type(int n) const { return t_.type(n); }
  std::uint32_t line_start(std::uint32_t at) const { return pyparse::line_start(src_, at); }
  std::string indent_of(std::uint32_t at) const { return pyparse::indent_of(src_, at); }
  // [line start, end of line incl. '\n') of a statement alone on its lines, or nullopt.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> whole_lines(int n) const {
    const std::uint32_t ls = line_start(t_.at(n).begin);
    for (std::uint32_t i = ls; i < t_.at(n).begin; ++i)
      if (src_[i] != ' ' && src_[i] != '\t') return std::nullopt;
    std::uint32_t e = t_.at(n).end;
    while (e < src_.size() && (src_[e] == ' ' || src_[e] == '\t')) ++e;
    if (e < src_.size() && src_[e] != '\n' && src_[e] != '\r' && src_[e] != '#') return std::nullopt;
    while (e < src_.size() && src_[e] != '\n') ++e;
    if (e < src_.size()) ++e;
    return std::make_pair(ls, e);
  }
  bool excluded(int n) const { return excluded_.count(t_.at(n).line) > 0; }

  // ----- the worklist -----------------------------------------------------------------------
  void success(const Row& r, int n, const std::string& what) {
    f_.count_converted(r.family);
    f_.work_item("success", t_.at(n).line, r.tf, what);
    converted_any_ = true;
    if (r.diff) f_.diag_at_line(Diag::TfNpuChange, t_.at(n).line, t_.at(n).col, r.tf + ": " + what, r.note);
  }
  void failed(const Row& r, int n, const std::string& why) {
    f_.count_unconverted("failed");
    f_.work_item("failed", t_.at(n).line, r.tf, why);
    keep_head(n);
    f_.diag_at_line(Diag::TfNpuFailed, t_.at(n).line, t_.at(n).col, r.tf + " left as written: " + why,
                    r.note.empty() ? "convert the call by hand (docs/targets.md#tf_npu)" : r.note);
  }
  void manual(const Row& r, int n, const std::string& why) {
    f_.count_unconverted("manual");
    f_.work_item("needs_manual", t_.at(n).line, r.tf, r.note.empty() ? why : r.note);
    keep_head(n);
    f_.diag_at_line(Diag::TfNpuManual, t_.at(n).line, t_.at(n).col, r.tf + " needs manual migration: " + why,
                    r.note.empty() ? "see docs/targets.md#tf_npu" : r.note);
  }
  void as_is(int n) {
    f_.count_converted("unchanged");
    keep_head(n);
  }
  // A reference left as written keeps the import of its head alias (a Horovod import stays).
  void keep_head(int n) {
    if (type(n) == "call") n = t_.child(n, "function");
    kept_aliases_.insert(pyparse::Imports::head_alias(t_, n));
  }

  bool edit(std::uint32_t b, std::uint32_t e, std::string text) { return edits_.replace(b, e, std::move(text)); }

  // ----- the walk ---------------------------------------------------------------------------
  void visit(int n) {
    if (n < 0) return;
    const std::string_view ty = type(n);
    if (ty == "import_statement" || ty == "import_from_statement" || ty == "comment" || ty == "string") return;
    if (excluded(n) && (ty == "call" || ty == "attribute" || ty == "identifier" || ty == "expression_statement")) {
      if (ty == "call" || ty == "attribute" || ty == "identifier") keep_head(n);
      return;
    }
    if (ty == "expression_statement" && assignment_removal(n)) return;
    if (ty == "call") return call(n);
    if (ty == "attribute" || ty == "identifier") {
      const std::string q = imp_.resolve(t_, n);
      if (!q.empty()) return reference(n, canonical(q));
      if (ty == "attribute") visit(t_.child(n, "object"));
      return;
    }
    if (ty == "keyword_argument") return visit(t_.child(n, "value"));
    if (ty == "function_definition") {
      for (int c : t_.children(n)) {
        if (t_.at(c).field == "name") continue;
        if (t_.at(c).field == "parameters") {
          for (int p : t_.named_children(c))
            if (type(p) == "default_parameter" || type(p) == "typed_default_parameter") visit(t_.child(p, "value"));
          continue;
        }
        visit(c);
      }
      return;
    }
    if (ty == "class_definition") {
      visit(t_.child(n, "superclasses"));
      visit(t_.child(n, "body"));
      return;
    }
    for (int c : t_.children(n)) visit(c);
  }

  // A reference outside a call: a rename row respells it, anything else runs as it is.
  void reference(int n, const std::string& q) {
    const Row* r = tab_.find(q);
    if (r && r->action == Action::Rename && r->ops.empty()) {
      if (edit(t_.at(n).begin, t_.at(n).end, r->npu)) success(*r, n, q + " → " + r->npu);
      return;
    }
    as_is(n);
  }

  // `x.y.allow_growth = True` and the other "=.name" rows.
  bool assignment_removal(int st) {
    const std::vector<int> kids = t_.named_children(st);
    if (kids.size() != 1 || type(kids[0]) != "assignment") return false;
    const int left = t_.child(kids[0], "left");
    if (type(left) != "attribute") return false;
    const std::string name(text(t_.child(left, "attribute")));
    const Row* r = tab_.find("=." + name);
    if (!r || r->action != Action::Remove) return false;
    if (!remove_statement(st)) return false;
    success(*r, st, std::string(text(left)) + " = ... removed");
    f_.diag_at_line(Diag::TfNpuRemoved, t_.at(st).line, t_.at(st).col,
                    "removed: " + std::string(text(left)) + " (" + r->tf.substr(1) + ")", r->note);
    return true;
  }

  void call(int n) {
    const int fn = t_.child(n, "function");
    const std::string q = imp_.resolve(t_, fn);
    if (!q.empty()) {
      const std::string cq = canonical(q);
      if (const Row* r = tab_.find(cq)) return apply(*r, n, fn);
      // a method of a TensorFlow object (tf.data.Dataset.range(10).batch(4)): the method rows apply
      as_is(fn);
      visit(t_.child(n, "arguments"));
      return;
    }
    if (type(fn) == "attribute") {
      // a method the file defines itself (def batch(self, ...)) is the project's own, not a dataset's
      const std::string method(text(t_.child(fn, "attribute")));
      const Row* r = defined_functions_.count(method) ? nullptr : tab_.find("." + method);
      visit(t_.child(fn, "object"));
      if (r) return apply(*r, n, -1);
    } else {
      visit(fn);
    }
    visit(t_.child(n, "arguments"));
  }

  // ----- arguments --------------------------------------------------------------------------
  using Args = pyparse::CallArgs;
  Args arguments(int call_node) const { return pyparse::call_arguments(t_, call_node); }
  // The expression `expr` with {@N}, {kw} and {a|@N} replaced by those arguments' source text, or
  // "" when one is missing.
  std::string expand(const std::string& expr, const Args& a) const {
    return expand_arguments(expr, a, t_, [&](int n) { return std::string(text(n)); });
  }
  // `node` is already the PARAM= argument of a call of `func` (a second run must not wrap again).
  bool wrapped_by(int node, const std::string& func) const {
    int p = t_.at(node).parent;
    if (type(p) == "keyword_argument") p = t_.at(p).parent;
    if (type(p) != "argument_list") return false;
    const int call = t_.at(p).parent;
    return type(call) == "call" && text(t_.child(call, "function")) == func;
  }
  // The same text, but for the quotes of string literals ("/cpu:0" is '/cpu:0').
  static bool same_text(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const char x = a[i] == '"' ? '\'' : a[i], y = b[i] == '"' ? '\'' : b[i];
      if (x != y) return false;
    }
    return true;
  }
  bool is_call_of(int node, const std::string& func) const {
    return type(node) == "call" && text(t_.child(node, "function")) == func;
  }

  struct Planned {
    std::uint32_t b, e;
    std::string text;
  };
  // The edits of a row's keyword operations on a call's arguments `a`, or nullopt with *problem set. `changed`
  // lists what they do, for the worklist; nothing changed leaves it empty.
  std::optional<std::vector<Planned>> plan_arguments(const Row& r, const Args& a, std::set<std::string>& final_kw,
                                                     std::vector<std::string>& changed, std::set<int>& dropped,
                                                     std::string* problem) {
    std::vector<Planned> plan;
    for (const auto& [k, node] : a.keywords) final_kw.insert(k);
    std::vector<std::string> appended;  // ", k=v" texts added at the end
    for (const ArgOp& op : r.ops) {
      switch (op.kind) {
        case ArgOp::Kind::Rename:
          if (auto it = a.keywords.find(op.from); it != a.keywords.end() && op.from != op.to) {
            if (final_kw.count(op.to)) *problem = "both " + op.from + " and " + op.to + " are given";
            const int name = t_.child(it->second, "name");
            plan.push_back({t_.at(name).begin, t_.at(name).end, op.to});
            final_kw.erase(op.from);
            final_kw.insert(op.to);
            changed.push_back(op.from + " → " + op.to);
          }
          break;
        case ArgOp::Kind::Drop:
          if (auto it = a.keywords.find(op.from); it != a.keywords.end()) {
            dropped.insert(it->second);
            final_kw.erase(op.from);
            changed.push_back(op.from + " dropped");
          }
          break;
        case ArgOp::Kind::DropPositional:
          if (static_cast<std::size_t>(op.position) < a.positional.size()) {
            if (static_cast<std::size_t>(op.position) + 1 != a.positional.size())
              *problem = "positional argument " + std::to_string(op.position + 1) + " is not the last one";
            dropped.insert(a.positional[static_cast<std::size_t>(op.position)]);
          }
          break;
        case ArgOp::Kind::Positional:
          if (static_cast<std::size_t>(op.position) < a.positional.size()) {
            plan.push_back({t_.at(a.positional[static_cast<std::size_t>(op.position)]).begin,
                            t_.at(a.positional[static_cast<std::size_t>(op.position)]).begin, op.to + "="});
            final_kw.insert(op.to);
          }
          break;
        case ArgOp::Kind::SetPositional:
          if (static_cast<std::size_t>(op.position) < a.positional.size()) {
            const int v = a.positional[static_cast<std::size_t>(op.position)];
            if (!same_text(text(v), op.to)) {
              plan.push_back({t_.at(v).begin, t_.at(v).end, op.to});
              changed.push_back(std::string(text(v)) + " → " + op.to);
            }
          }
          break;
        case ArgOp::Kind::Set:
          if (auto it = a.keywords.find(op.from); it != a.keywords.end()) {
            const int v = t_.child(it->second, "value");
            if (!same_text(text(v), op.to)) {
              plan.push_back({t_.at(v).begin, t_.at(v).end, op.to});
              changed.push_back(op.from + "=" + op.to);
            }
          } else if (!a.splat) {  // (with **kwargs the keyword may be among them)
            appended.push_back(op.from + "=" + op.to);
            final_kw.insert(op.from);
            changed.push_back(op.from + "=" + op.to);
          }
          break;
        case ArgOp::Kind::Add:
          if (!final_kw.count(op.from)) {
            const std::string value = expand(op.to, a);
            if (value.empty()) {
              if (!op.optional)
                *problem = "the value of " + op.from + " (" + op.to + ") cannot be formed from the arguments";
              break;
            }
            appended.push_back(op.from + "=" + value);
            final_kw.insert(op.from);
            changed.push_back(op.from + "=" + value);
          }
          break;
        case ArgOp::Kind::WrapKeyword:
          if (auto it = a.keywords.find(op.from); it != a.keywords.end()) {
            const int v = t_.child(it->second, "value");
            if (is_call_of(v, op.func)) break;
            plan.push_back({t_.at(v).begin, t_.at(v).begin, op.func + "(" + op.param + "="});
            plan.push_back({t_.at(v).end, t_.at(v).end, ")"});
            changed.push_back(op.from + "=" + op.func + "(" + op.param + "=...)");
            wrapped_values_.insert(v);
          } else if (!a.splat) {
            appended.push_back(op.from + "=" + op.func + "()");
            final_kw.insert(op.from);
            changed.push_back(op.from + "=" + op.func + "()");
          }
          break;
      }
    }
    if (!problem->empty()) return std::nullopt;
    // drops: each run of neighbours at once, with its commas
    std::size_t kept = 0;
    for (int arg : a.all) kept += !dropped.count(arg);
    for (const auto& [b, e] : pyparse::argument_removals(t_, a, dropped)) plan.push_back({b, e, ""});
    if (!appended.empty()) {
      std::uint32_t at = t_.at(a.list).end - 1;
      bool first = kept == 0;
      if (!first)
        for (auto it = a.all.rbegin(); it != a.all.rend(); ++it)
          if (!dropped.count(*it)) {
            at = t_.at(*it).end;
            break;
          }
      std::string ins;
      for (const std::string& x : appended) {
        ins += (first ? "" : ", ") + x;
        first = false;
      }
      plan.push_back({at, at, ins});
    }
    return plan;
  }
  bool commit_plan(const std::vector<Planned>& plan) {
    rewrite::EditSet trial = edits_;
    for (const Planned& p : plan)
      if (!trial.replace(p.b, p.e, p.text)) return false;
    edits_ = std::move(trial);
    return true;
  }
  static std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  }

  // ----- applying a row ---------------------------------------------------------------------
  // `fn` is the callee node, or -1 for a method row.
  void apply(const Row& r, int n, int fn) {
    const Args a = arguments(n);
    switch (r.action) {
      case Action::Manual:
        manual(r, n, "no automatic conversion");
        visit(a.list);
        return;
      case Action::Import:
        if (src_.find(r.npu) == std::string_view::npos && !extra_imports_.count(r.npu)) {
          extra_imports_.insert(r.npu);
          success(r, n, "adds `" + r.npu + "`");
        } else {
          as_is(n);
        }
        visit(a.list);
        return;
      case Action::Remove: {
        const int st = t_.at(n).parent;
        if (type(st) == "expression_statement" && t_.named_children(st).size() == 1 && remove_statement(st)) {
          success(r, n, std::string(text(t_.child(n, "function"))) + "(...) removed");
          f_.diag_at_line(Diag::TfNpuRemoved, t_.at(n).line, t_.at(n).col, "removed: " + r.tf + "(...)", r.note);
          return;
        }
        manual(r, n, "its statement cannot be removed (the call's value is used)");
        visit(a.list);
        return;
      }
      case Action::Wrap: {
        if (wrapped_by(n, r.npu)) {
          as_is(n);
          visit(a.list);
          return;
        }
        visit(a.list);
        if (wrapped_values_.count(n)) {  // Session(config=ConfigProto()) wrapped already by the keyword
          as_is(n);
          return;
        }
        if (commit_plan({{t_.at(n).begin, t_.at(n).begin, r.npu + "(" + r.wrap_param + "="},
                         {t_.at(n).end, t_.at(n).end, ")"}}))
          success(r, n, "wrapped in " + r.npu + "(" + r.wrap_param + "=...)");
        return;
      }
      case Action::Replace: {
        const std::string repl = expand(r.npu, a);
        if (repl.empty()) return failed(r, n, "an argument the NPU form needs is missing (" + r.npu + ")");
        if (a.splat) return failed(r, n, "arguments passed with * or ** cannot be mapped");
        if (commit_plan({{t_.at(n).begin, t_.at(n).end, repl}})) success(r, n, "→ " + repl);
        return;
      }
      case Action::Rename:
      case Action::Args: {
        std::set<std::string> final_kw;
        std::vector<std::string> changed;
        std::string problem;
        std::set<int> dropped;
        std::optional<std::vector<Planned>> plan = plan_arguments(r, a, final_kw, changed, dropped, &problem);
        if (plan && r.action == Action::Rename) {
          const ApiEntry* api = tab_.api(r.npu);
          if (!api) problem = r.npu + " is not in the NPU adapter's API table";
          else if (const std::size_t kept = static_cast<std::size_t>(std::count_if(
                       a.positional.begin(), a.positional.end(), [&](int x) { return !dropped.count(x); }));
                   !api->takes_positionals(kept))
            problem = std::to_string(kept) + " positional arguments for " + r.npu;
          else
            for (const std::string& k : final_kw)
              if (!api->takes(k)) problem = "keyword '" + k + "' has no counterpart in " + r.npu;
          if (a.splat && problem.empty() && api && api->params_known)
            problem = "arguments passed with * or ** cannot be checked against " + r.npu;
        }
        if (!problem.empty() || !plan) {
          failed(r, n, problem);
          visit(a.list);
          return;
        }
        for (int x : a.all)  // the arguments that stay (a dropped one's references go with it)
          if (!dropped.count(x)) visit(x);
        if (r.action == Action::Rename) plan->push_back({t_.at(fn).begin, t_.at(fn).end, r.npu});
        if (plan->empty()) {      // nothing to change: it already has what the row asks
          if (fn >= 0) as_is(n);  // (a method row on any receiver is a TensorFlow use only when it changes)
          return;
        }
        if (!commit_plan(*plan)) {
          as_is(n);
          return;
        }
        std::string what = r.action == Action::Rename ? "→ " + r.npu : std::string();
        if (!changed.empty()) what += (what.empty() ? "" : "; ") + joined(changed);
        success(r, n, what);
        return;
      }
    }
  }

  // ----- removed statements -----------------------------------------------------------------
  bool remove_statement(int st) {
    const auto lines = whole_lines(st);
    if (!lines) return false;
    for (const auto& [b, e] : removals_)
      if (b == lines->first) return false;
    if (edits_.overlaps(lines->first, lines->second)) return false;
    removals_.push_back(*lines);
    removal_blocks_[t_.at(st).parent].push_back(*lines);
    return true;
  }
  void finish_removals() {
    for (const auto& [block, lines] : removal_blocks_) {
      std::size_t count = 0;
      for (int c : t_.named_children(block)) count += type(c) != "comment";
      const bool empties = type(block) == "block" && lines.size() >= count;
      for (std::size_t i = 0; i < lines.size(); ++i)
        edits_.replace(lines[i].first, lines[i].second,
                       empties && i == 0 ? indent_of(lines[i].first) + "pass\n" : std::string());
    }
  }

  // ----- the Keras session (TensorFlow 1.15) -------------------------------------------------
  // A Keras script's graph runs on the NPU only in a session with the NPU options: as Ascend's tool
  // does, the `if __name__ == "__main__":` block of a file that imports Keras opens one first
  // (npu_keras_sess = set_keras_session_npu_config()) and closes it last (close_session).
  void keras_session() {
    bool keras = false;
    for (const auto& [alias, q] : imp_.aliases)
      if (canonical(q).rfind("tf.keras", 0) == 0) keras = true;
    for (const pyparse::ImportStmt& st : imp_.statements)  // import tensorflow.keras...
      if (text(st.node).find("keras") != std::string_view::npos) keras = true;
    if (!keras || src_.find("set_keras_session_npu_config") != std::string_view::npos) return;
    for (int c : t_.named_children(t_.root())) {
      if (type(c) != "if_statement") continue;
      const std::string cond(text(t_.child(c, "condition")));
      if (cond.find("__name__") == std::string::npos || cond.find("__main__") == std::string::npos) continue;
      const int body = t_.child(c, "consequence");
      const std::vector<int> stmts = t_.named_children(body);
      if (stmts.empty()) return;
      const std::uint32_t first = line_start(t_.at(stmts.front()).begin);
      if (first <= t_.at(c).begin) return;  // `if __name__ == "__main__": main()` on one line
      const std::string ind = indent_of(t_.at(stmts.front()).begin);
      std::uint32_t end = t_.at(body).end;
      while (end < src_.size() && src_[end] != '\n') ++end;
      const std::string close = ind + "close_session(npu_keras_sess)\n";
      if (!edits_.insert(first, ind + "npu_keras_sess = set_keras_session_npu_config()\n")) return;
      edits_.insert(end < src_.size() ? end + 1 : end, end < src_.size() ? close : "\n" + close);
      f_.count_converted("session");
      f_.work_item("success", t_.at(c).line, "tf.keras",
                   "the __main__ block opens a Keras session with the NPU options (set_keras_session_npu_config) "
                   "and closes it");
      converted_any_ = true;
      return;
    }
  }

  // ----- imports ----------------------------------------------------------------------------
  void finish_imports() {
    // Horovod imports whose every use was converted
    for (const pyparse::ImportStmt& st : imp_.statements) {
      bool horovod = true, keep = false;
      for (const std::string& alias : st.aliases) {
        auto it = imp_.aliases.find(alias);
        if (alias.empty() || alias == "*" || it == imp_.aliases.end()) {
          keep = true;
          continue;
        }
        if (!pyparse::module_under(it->second, "horovod")) horovod = false;
        if (kept_aliases_.count(alias)) keep = true;
      }
      if (!horovod || keep || !converted_any_) continue;
      if (const auto lines = whole_lines(st.node)) {
        std::size_t count = 0;
        const int block = t_.at(st.node).parent;
        for (int c : t_.named_children(block)) count += type(c) != "comment";
        edits_.replace(lines->first, lines->second,
                       type(block) == "block" && count == 1 ? indent_of(lines->first) + "pass\n" : std::string());
      }
    }
    if (!converted_any_) return;
    std::string lines;
    if (src_.find(kNpuImport) == std::string_view::npos) lines += std::string(kNpuImport) + "\n";
    for (const std::string& x : extra_imports_) lines += x + "\n";
    if (lines.empty()) return;
    // after the first module-level TensorFlow import (or the first import of the file)
    int anchor = -1;
    for (const pyparse::ImportStmt& st : imp_.statements)
      if (type(t_.at(st.node).parent) == "module") {
        bool tf = false;
        for (const std::string& alias : st.aliases)
          if (auto it = imp_.aliases.find(alias);
              it != imp_.aliases.end() && !pyparse::module_under(it->second, "horovod"))
            tf = true;
        if (tf) {
          anchor = st.node;
          break;
        }
      }
    if (anchor < 0)
      for (int c : t_.named_children(t_.root()))
        if (type(c) == "import_statement" || type(c) == "import_from_statement") {
          anchor = c;
          break;
        }
    std::uint32_t at = 0;
    if (src_.rfind("#!", 0) == 0) {  // never before a shebang line
      const std::size_t nl = src_.find('\n');
      at = nl == std::string_view::npos ? static_cast<std::uint32_t>(src_.size()) : static_cast<std::uint32_t>(nl + 1);
    }
    if (anchor >= 0) {
      if (const auto l = whole_lines(anchor)) at = l->second;
      else at = line_start(t_.at(anchor).begin);
    }
    if (at > 0 && src_[at - 1] != '\n') lines = "\n" + lines;
    edits_.insert(at, lines);
  }

  FileMigration& f_;
  const pyparse::Tree& t_;
  const Tables& tab_;
  Settings s_;
  std::string_view src_;
  pyparse::Imports imp_;
  rewrite::EditSet edits_;
  std::set<std::uint32_t> excluded_;
  std::set<std::string> kept_aliases_, extra_imports_;
  std::set<std::string> defined_functions_;  // names the file defines with def
  std::set<int> wrapped_values_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> removals_;
  std::map<int, std::vector<std::pair<std::uint32_t, std::uint32_t>>> removal_blocks_;
  bool converted_any_ = false;
};

}  // namespace

void convert_python(migrate::FileMigration& file, const Settings& settings) {
  const std::optional<pyparse::Tree> tree = parse_script(file, "tf_npu");
  if (tree) Converter(file, *tree, Tables::builtin(settings.major), settings).run();
}

}  // namespace ferry::targets::tf_npu
