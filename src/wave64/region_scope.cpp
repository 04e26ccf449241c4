#include "wave64/region_scope.h"

namespace ferry::wave64::regions {
void FileScope::collect() {
  for (std::size_t i = 0; i + 1 < v_.code_size(); ++i)
    if (is(i, "thread_block") && v_.is_identifier(i + 1)) block_objs_.insert(tx(i + 1));
  for (std::size_t i = 0; i < v_.code_size(); ++i) {
    if (v_.in_directive(i)) {
      if (is(i, "#") && is(i + 1, "define") && v_.is_identifier(i + 2)) {
        const std::size_t last = v_.directive_last(i);
        std::size_t b = i + 3;
        if (is(b, "(") && v_.code(b).begin == v_.code(i + 2).end) {
          const std::size_t c = v_.match_bracket(b);
          b = c == npos ? last + 1 : c + 1;
        }
        macros_[tx(i + 2)] = {b, last};
        i = last;
      }
      continue;
    }
    if (!is(i, "{")) continue;
    // `name ( ... ) [const|noexcept|attributes]* {` at any depth: a function (or a constructor) body.
    std::size_t j = i;
    while (j > 0 && (is(j - 1, "const") || is(j - 1, "noexcept") || is(j - 1, "override"))) --j;
    if (j == 0 || !is(j - 1, ")")) continue;
    const std::size_t open = v_.partner(j - 1);
    if (open == npos || open == 0 || !v_.is_identifier(open - 1)) continue;
    const std::string name = tx(open - 1);
    if (name == "if" || name == "for" || name == "while" || name == "switch" || name == "catch") continue;
    const std::size_t close = v_.match_bracket(i);
    if (close == npos) continue;
    funcs_[name].push_back({i, close});
  }
}

std::size_t FileScope::template_call_paren(std::size_t id) const {
  if (!is(id + 1, "<")) return npos;
  int depth = 0;
  for (std::size_t j = id + 1; j < v_.code_size() && j < id + 64; ++j) {
    if (is(j, "<")) ++depth;
    else if (is(j, ">")) --depth;
    else if (is(j, ">>")) depth -= 2;
    else if (is(j, ";") || is(j, "{") || is(j, "}") || is(j, "&&") || is(j, "||") || is(j, "=")) return npos;
    else if (is(j, "(") || is(j, "[")) {
      const std::size_t c = v_.match_bracket(j);
      if (c == npos) return npos;
      j = c;
      continue;
    }
    if (depth == 0) return is(j + 1, "(") ? j + 1 : npos;
    if (depth < 0) return npos;
  }
  return npos;
}

bool FileScope::function_safe(const std::string& name) {
  if (auto it = safe_memo_.find(name); it != safe_memo_.end()) return it->second;
  if (in_progress_.count(name)) return false;  // recursion: unsure
  in_progress_.insert(name);
  bool ok = true;
  if (auto f = funcs_.find(name); f != funcs_.end()) {
    for (auto [b, e] : f->second) ok = ok && range_safe(b, e, nullptr);
  } else if (auto m = macros_.find(name); m != macros_.end()) {
    ok = m->second.first > m->second.second || range_safe(m->second.first, m->second.second, nullptr);
  } else {
    ok = safe_external_call(name);
  }
  in_progress_.erase(name);
  safe_memo_[name] = ok;
  return ok;
}

bool FileScope::range_safe(std::size_t first, std::size_t last, std::string* why) {
  for (std::size_t i = first; i <= last && i < v_.code_size(); ++i) {
    if (!v_.is_identifier(i)) continue;
    const std::string n = tx(i);
    if (sync_word(n)) {
      if (why) *why = n;
      return false;
    }
    if (macros_.count(n) && !function_safe(n)) {
      if (why) *why = n + " (a macro that reaches a barrier or warp operation)";
      return false;
    }
    const bool member = v_.is_member_name(i);
    const bool call = is(i + 1, "(") || template_call_paren(i) != npos;
    if (!call || is_keyword_call(n)) continue;
    if (member) {
      static const std::set<std::string_view> block_members = {
          "thread_rank", "size", "num_threads", "group_index", "thread_index", "group_dim", "dim_threads", "is_valid"};
      if (i >= 2 && v_.is_identifier(i - 2) && block_objs_.count(tx(i - 2)) && block_members.count(n)) continue;
      if (why) *why = "." + n + "() (a member call)";
      return false;
    }
    if (i > 0 && is(i - 1, "::")) {
      // qualified: std::, the runtime's ::w64:: and the warp matrix functions each lane runs alone are safe
      std::size_t q = i - 1;
      while (q >= 2 && is(q - 2, "::") && v_.is_identifier(q - 1)) q -= 2;
      // the leftmost qualifier: `std::f`, `::w64::f` (the driver's own rewrites)
      const bool std_ns = (q >= 1 && (is(q - 1, "std") || is(q - 1, "w64"))) || is(q + 1, "std") || is(q + 1, "w64") ||
                          n == "this_thread_block" || (wmma_lane_call(n) && q >= 1 && wmma_namespace(v_.text(q - 1)));
      if (!std_ns) {
        if (why) *why = n + "() (a qualified call)";
        return false;
      }
      continue;
    }
    if (funcs_.count(n) || macros_.count(n)) {
      if (!function_safe(n)) {
        if (why) *why = n + "() (it reaches a barrier or warp operation; functions are not split)";
        return false;
      }
      continue;
    }
    if (!safe_external_call(n)) {
      if (why) *why = n + "() (not defined in this file)";
      return false;
    }
  }
  return true;
}

bool FileScope::kernel_body(std::size_t kw, std::size_t& params_open, std::size_t& open, std::size_t& close) const {
  // the definition's body: the first `{` after the head (parentheses skipped), unless a `;` ends
  // a declaration first
  std::size_t i = kw + 1;
  params_open = npos;
  for (; i < v_.code_size(); ++i) {
    if (v_.in_directive(i)) continue;
    if (is(i, "(")) {
      const std::size_t c = v_.match_bracket(i);
      if (c == npos) return false;
      if (i > 0 && v_.is_identifier(i - 1) && !is(i - 1, "__launch_bounds__") && !is(i - 1, "__attribute__"))
        params_open = i;
      i = c;
      continue;
    }
    if (is(i, ";") || is(i, "=")) return false;
    if (is(i, "{")) break;
  }
  if (i >= v_.code_size() || params_open == npos) return false;
  open = i;
  close = v_.match_bracket(i);
  return close != npos;
}

std::set<std::string> param_names(const CodeView& v, std::size_t open, std::size_t close) {
  std::set<std::string> names;
  std::size_t last_id = npos;
  int depth = 0;
  for (std::size_t i = open + 1; i <= close; ++i) {
    if (i == close || (depth == 0 && v.is(i, ","))) {
      if (last_id != npos) names.insert(std::string(v.text(last_id)));
      last_id = npos;
      continue;
    }
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "<")) ++depth;
    else if (v.is(i, ")") || v.is(i, "]") || v.is(i, ">")) --depth;
    else if (depth == 0 && v.is(i, "=")) {
      // default argument: the name is before it; skip to the next comma
      if (last_id != npos) names.insert(std::string(v.text(last_id)));
      last_id = npos;
      while (i + 1 < close && !(depth == 0 && v.is(i + 1, ","))) {
        ++i;
        if (v.is(i, "(") || v.is(i, "[")) depth++;
        else if (v.is(i, ")") || v.is(i, "]")) depth--;
      }
      continue;
    }
    if (depth == 0 && v.is_identifier(i)) last_id = i;
  }
  return names;
}

}  // namespace ferry::wave64::regions
