// The region pass's driver (regions.h): inlines the calls that reach barriers, then splits each
// kernel (region_split.h) and writes its region form before the original body. The pieces:
//   region_syntax  names, statements and declarations as the pass reads them;
//   region_scope   the file's functions and macros, and which calls may reach a barrier;
//   region_inline  calls of such functions replaced by their bodies;
//   region_split   one kernel's regions, lane conditions and per-lane locals (the walk);
//   region_chunk   accumulation loops run in chunks of iterations over the lanes;
//   region_emit    the code of the region form.
#include "wave64/regions.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "wave64/region_inline.h"
#include "wave64/region_scope.h"
#include "wave64/region_split.h"
#include "wave64/region_syntax.h"

namespace ferry::wave64 {
namespace {

using namespace regions;

class Pass {
 public:
  Pass(std::string_view text, std::string display, std::map<int, std::string> originals)
      : v_(text), scope_(v_), display_(std::move(display)), originals_(std::move(originals)) {
    for (char c : display_) {
      if (c == '"' || c == '\\') quoted_ += '\\';
      quoted_ += c;
    }
  }
  RegionOutcome run();

 private:
  CodeView v_;
  FileScope scope_;
  std::string display_, quoted_;
  std::map<int, std::string> originals_;  // kernel ordinal -> body as written, when calls were inlined
  RegionOutcome out_;

  bool is(std::size_t i, std::string_view t) const { return v_.is(i, t); }
  std::string tx(std::size_t i) const { return std::string(v_.text(i)); }
  void kernel(std::size_t kw, int ordinal, TokenEdits& edits);
};

void Pass::kernel(std::size_t kw, int ordinal, TokenEdits& edits) {
  std::size_t params_open = npos, open = npos, close = npos;
  if (!scope_.kernel_body(kw, params_open, open, close)) return;
  const auto original = originals_.find(ordinal);
  // a kernel whose calls were inlined for the region form but that keeps the fiber path gets its
  // body back as written (same lines: inlined code stands on its call's line)
  auto restore = [&] {
    if (original != originals_.end()) edits.push_back({{open, close}, "{" + original->second + "}"});
  };
  const std::string name = tx(params_open - 1);
  bool any_sync = false;
  for (std::size_t k = open; k <= close && !any_sync; ++k) any_sync = v_.is_identifier(k) && sync_word(v_.text(k));
  std::string why_call;
  const bool calls_safe = scope_.range_safe(open, close, &why_call);
  if (!any_sync && calls_safe) return;  // no barrier, no warp operation: the plain-call loop runs it

  auto note = [&](bool split, std::size_t at, std::string msg) {
    RegionNote n;
    n.split = split;
    n.line = v_.code(at).line;
    n.col = v_.code(at).col;
    n.message = std::move(msg);
    out_.notes.push_back(std::move(n));
  };
  std::vector<Stmt> body;
  if (!parse_statements(v_, open + 1, close, body)) {
    note(false, params_open - 1,
         "kernel " + name + " keeps the fiber path: its body is not in a form the region pass reads");
    ++out_.kept;
    restore();
    return;
  }
  std::string code;
  // with accumulation loops in chunks over the lanes first; if that form fails, without
  for (bool chunks : {true, false}) {
    Splitter sp(
        v_, [this](std::size_t a, std::size_t b, std::string* why) { return scope_.range_safe(a, b, why); },
        param_names(v_, params_open, v_.match_bracket(params_open)), open, close);
    sp.set_chunk_loops(chunks);
    try {
      code = sp.build(body, quoted_);
      break;
    } catch (const Fail& f) {
      if (chunks && sp.chunked() > 0) continue;
      restore();
      if (f.why.empty()) return;
      note(false, f.at, "kernel " + name + " keeps the fiber path: " + f.why);
      ++out_.kept;
      return;
    }
  }
  std::string text = "{ if (::w64::rg::enter()) {" + code + " }\n#line " + std::to_string(v_.code(open).line) + " \"" +
                     quoted_ + "\"\n";
  // the original body, each line where it was
  const std::string_view src = v_.source();
  text += std::string(v_.code(open).col, ' ');
  if (original != originals_.end()) text += original->second;
  else text += std::string(src.substr(v_.code(open).end, v_.code(close).begin - v_.code(open).end));
  text += "\n#line " + std::to_string(v_.code(close).line) + " \"" + quoted_ + "\"\n";
  text += std::string(v_.code(close).col > 0 ? v_.code(close).col - 1 : 0, ' ') + "}";
  edits.push_back({{open, close}, std::move(text)});
  note(true, params_open - 1,
       "kernel " + name +
           " runs in region form: the code between its barriers and warp operations is a loop over lanes");
  ++out_.split;
}

RegionOutcome Pass::run() {
  scope_.collect();
  TokenEdits edits;
  int ordinal = 0;
  for (std::size_t i = 0; i < v_.code_size(); ++i)
    if (is(i, "__global__") && !v_.in_directive(i)) kernel(i, ordinal++, edits);
  out_.text = apply_edits(v_, edits);
  return std::move(out_);
}

}  // namespace

std::string RegionNote::format(const std::string& path) const {
  return path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": note: " + message;
}

RegionOutcome form_regions(std::string_view text, const std::string& display_path) {
  // Calls of functions that reach barriers or warp operations are inlined first (a few rounds:
  // the inlined bodies may call more), then the kernels are split.
  std::string cur(text);
  std::map<int, std::string> originals;
  int next_id = 0;
  for (int round = 0; round < 6; ++round) {
    const CodeView v(cur);
    FileScope scope(v);
    std::string next;
    if (!Inliner(v, scope).inline_calls(next, originals, next_id)) break;
    cur = std::move(next);
  }
  Pass p(cur, display_path, std::move(originals));
  return p.run();
}

}  // namespace ferry::wave64
