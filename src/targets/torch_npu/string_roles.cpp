#include "targets/torch_npu/string_roles.h"

#include <cctype>

namespace ferry::targets::torch_npu {

using lex::py::Kind;
using lex::py::Token;

bool is_device_name(std::string_view n) {
  std::string l;
  for (char c : n) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return l == "device" || l == "device_type" || l == "map_location" || l == "output_device" || l == "device_id" ||
         l == "dev" || (l.size() > 7 && l.compare(l.size() - 7, 7, "_device") == 0) ||
         (l.size() > 7 && l.compare(0, 7, "device_") == 0 && l != "device_ids");
}

namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

enum Role { Backend = 0, Device = 1 };

class Finder {
 public:
  Finder(std::string_view src, const std::vector<Token>& toks, const std::vector<std::size_t>& code)
      : src_(src), toks_(toks), code_(code) {}

  StringRoles run() {
    sinks();
    for (int round = 0; round < 2; ++round) propagate();
    StringRoles out;
    for (std::size_t ci = 0; ci < code_.size(); ++ci) {
      if (kind(ci) != Kind::String) continue;
      for (const Role r : {Backend, Device})
        if (in_sink_[r].count(ci) || source(r, ci)) (r == Backend ? out.backend : out.device).insert(ci);
    }
    argparse(out);
    return out;
  }

 private:
  struct Arg {
    std::size_t first, last;  // the value's tokens
    std::string_view kw;      // empty for a positional argument
  };

  const Token& tok(std::size_t ci) const { return toks_[code_[ci]]; }
  Kind kind(std::size_t ci) const { return tok(ci).kind; }
  std::string_view text(std::size_t ci) const { return ci < code_.size() ? tok(ci).text(src_) : std::string_view(); }
  bool is(std::size_t ci, std::string_view s) const { return ci < code_.size() && text(ci) == s; }
  bool name(std::size_t ci) const { return ci < code_.size() && kind(ci) == Kind::Name; }
  std::uint16_t depth(std::size_t ci) const { return tok(ci).depth; }

  // The closing bracket of the opener at `open`, or npos. A token's depth is the bracket depth
  // before it, so an opener and its closer have the same depth.
  std::size_t close_of(std::size_t open) const {
    for (std::size_t i = open + 1; i < code_.size(); ++i)
      if (depth(i) == depth(open) && (is(i, ")") || is(i, "]") || is(i, "}"))) return i;
    return npos;
  }
  std::vector<Arg> args(std::size_t open) const {
    std::vector<Arg> out;
    const std::size_t close = close_of(open);
    if (close == npos) return out;
    std::size_t start = open + 1;
    for (std::size_t i = open + 1; i <= close; ++i) {
      if (i < close && !(depth(i) == depth(open) + 1 && is(i, ","))) continue;
      if (start < i) {
        Arg a{start, i - 1, {}};
        if (name(start) && is(start + 1, "=") && start + 2 < i) {
          a.kw = text(start);
          a.first = start + 2;
        }
        out.push_back(a);
      }
      start = i + 1;
    }
    return out;
  }
  // Start of the dotted name `a.b.c` that ends at `last`, or npos (also when it is part of a longer one).
  std::size_t path_start(std::size_t last) const {
    if (last >= code_.size() || !name(last)) return npos;
    std::size_t b = last;
    while (b >= 2 && is(b - 1, ".") && name(b - 2)) b -= 2;
    if (b > 0 && is(b - 1, ".")) return npos;
    return b;
  }
  std::size_t path_end(std::size_t first) const {
    if (!name(first) || (first > 0 && is(first - 1, "."))) return npos;
    std::size_t e = first;
    while (is(e + 1, ".") && name(e + 2)) e += 2;
    return e;
  }
  std::string path_text(std::size_t b, std::size_t e) const {
    std::string s;
    for (std::size_t i = b; i <= e; ++i) s += text(i);
    return s;
  }
  static std::string_view last_part(std::string_view path) {
    const std::size_t dot = path.rfind('.');
    return dot == std::string_view::npos ? path : path.substr(dot + 1);
  }
  bool tracked(Role r, std::string_view path) const {
    if (paths_[r].count(std::string(path))) return true;
    return path.find('.') != std::string_view::npos && attrs_[r].count(std::string(last_part(path)));
  }
  void track(Role r, const std::string& path) {
    paths_[r].insert(path);
    if (path.find('.') != std::string::npos) attrs_[r].insert(std::string(last_part(path)));
  }
  bool tracked_ending_at(Role r, std::size_t last) const {
    const std::size_t b = path_start(last);
    return b != npos && tracked(r, path_text(b, last));
  }
  bool tracked_starting_at(Role r, std::size_t first) const {
    const std::size_t e = path_end(first);
    return e != npos && !is(e + 1, "(") && tracked(r, path_text(first, e));
  }

  // A sink's argument: its strings, and every dotted name in it that is not called.
  void sink(Role r, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i <= last; ++i) {
      if (kind(i) == Kind::String) in_sink_[r].insert(i);
      const std::size_t e = path_end(i);
      if (e == npos || e > last) continue;
      if (!is(e + 1, "(") && !is(i, "torch")) track(r, path_text(i, e));
      i = e;
    }
  }

  void sinks() {
    for (std::size_t ci = 0; ci + 1 < code_.size(); ++ci) {
      if (!name(ci)) continue;
      const std::string_view n = text(ci);
      const bool called = is(ci + 1, "(");
      const bool method = ci > 0 && is(ci - 1, ".");
      if (called && (n == "init_process_group" || n == "new_group")) {
        const auto a = args(ci + 1);
        for (std::size_t k = 0; k < a.size(); ++k)
          if (a[k].kw == "backend" || (a[k].kw.empty() && k == 0 && n == "init_process_group"))
            sink(Backend, a[k].first, a[k].last);
      } else if (called && ((n == "device" && method && ci >= 2 && is(ci - 2, "torch")) || (n == "to" && method) ||
                            n == "autocast")) {
        const auto a = args(ci + 1);
        for (std::size_t k = 0; k < a.size(); ++k)
          if ((a[k].kw.empty() && k == 0) || a[k].kw == "device_type" || a[k].kw == "device" || a[k].kw == "type")
            sink(Device, a[k].first, a[k].last);
      } else if (is(ci + 1, "=") && depth(ci) > 0 && (n == "backend" || is_device_name(n))) {
        // A keyword argument (or a parameter default): its value up to the next comma.
        std::size_t e = ci + 2;
        while (e < code_.size() && depth(e) >= depth(ci) && !(depth(e) == depth(ci) && is(e, ","))) ++e;
        if (e > ci + 2) sink(n == "backend" ? Backend : Device, ci + 2, e - 1);
      }
    }
  }

  // The target of the assignment whose right-hand side holds the string at `ci` at its own depth:
  // `T = 's'`, `T: type = 's'`, `T = 's' if c else 'u'`; the target's [first, last], or npos.
  std::pair<std::size_t, std::size_t> assignment_target(std::size_t ci) const {
    std::size_t eq = npos;
    for (std::size_t i = ci; i-- > 0;) {
      if (tok(i).line != tok(ci).line && depth(i) == 0) break;
      if (depth(i) < depth(ci)) break;
      if (depth(i) > depth(ci)) continue;
      const std::string_view t = text(i);
      if (t == "=") {
        eq = i;
        break;
      }
      if (t == "," || t == "lambda" || t == "return" || t == ":" || t == "(" || t == "[" || t == "{") break;
    }
    if (eq == npos || eq == 0) return {npos, npos};
    std::size_t last = eq - 1;
    // `T: Optional[str] = 's'`: back over the annotation (on the same line) to the colon.
    for (std::size_t i = eq - 1; i > 0 && tok(i).line == tok(eq).line && depth(i) >= depth(eq); --i) {
      if (depth(i) > depth(eq)) continue;
      if (is(i - 1, ":") && i - 1 > 0 && tok(i - 1).line == tok(eq).line) {
        last = i - 2;
        break;
      }
      if (!(name(i) || is(i, ".") || is(i, "[") || is(i, "]") || is(i, "|"))) break;
    }
    const std::size_t b = path_start(last);
    return b == npos ? std::pair{npos, npos} : std::pair{b, last};
  }

  // `T = U` with T tracked: U is tracked too.
  void propagate() {
    for (std::size_t ci = 1; ci + 1 < code_.size(); ++ci) {
      if (!is(ci, "=")) continue;
      const std::size_t tb = path_start(ci - 1);
      const std::size_t ue = path_end(ci + 1);
      if (tb == npos || ue == npos || is(ue + 1, "(") || is(ue + 1, "[")) continue;
      const std::string t = path_text(tb, ci - 1);
      for (const Role r : {Backend, Device})
        if (tracked(r, t) && !is(ci + 1, "torch")) track(r, path_text(ci + 1, ue));
    }
  }

  bool assigned_to_role(Role r, std::size_t ci, bool by_name_at_top_level) const {
    const auto [b, e] = assignment_target(ci);
    if (b == npos) return false;
    const std::string t = path_text(b, e);
    if (tracked(r, t)) return true;
    return b == e && (depth(ci) > 0 || by_name_at_top_level) && (r == Backend ? t == "backend" : is_device_name(t));
  }

  bool source(Role r, std::size_t ci) const {
    // T = 's' (and keyword/parameter defaults, annotated or conditional right-hand sides)
    if (assigned_to_role(r, ci, false)) return true;
    // T = os.environ.get('KEY', 's'), T = getenv('KEY', 's'), T = d.get(k, 's'): the default.
    if (depth(ci) > 0 && is(ci + 1, ")")) {
      std::size_t o = ci;
      while (o > 0 && depth(o) >= depth(ci)) --o;
      if (is(o, "(") && o > 0 && (is(o - 1, "get") || is(o - 1, "getenv"))) {
        const std::size_t b = path_start(o - 1);
        if (b != npos && assigned_to_role(r, b, true)) return true;
      }
    }
    // T == 's', 's' != T, x.get_backend() == 's'
    if (ci >= 2 && (is(ci - 1, "==") || is(ci - 1, "!="))) {
      if (tracked_ending_at(r, ci - 2)) return true;
      if (r == Backend && is(ci - 2, ")")) {
        for (std::size_t o = ci - 2; o-- > 0;)
          if (depth(o) == depth(ci - 2) && is(o, "(")) return o > 0 && is(o - 1, "get_backend");
      }
    }
    if ((is(ci + 1, "==") || is(ci + 1, "!=")) && tracked_starting_at(r, ci + 2)) return true;
    // 's' in T
    if (is(ci + 1, "in") && tracked_starting_at(r, ci + 2)) return true;
    // T in ('s', ...)
    if (depth(ci) > 0) {
      for (std::size_t o = ci; o-- > 0;) {
        if (depth(o) >= depth(ci)) continue;
        if ((is(o, "(") || is(o, "[") || is(o, "{")) && o >= 2 && is(o - 1, "in") && tracked_ending_at(r, o - 2))
          return true;
        break;
      }
    }
    return false;
  }

  // add_argument('--dist-backend', default='nccl', choices=[...]) whose dest is tracked;
  // set_defaults(dest='s'); getattr(x, 'dest', 's').
  void argparse(StringRoles& out) const {
    for (std::size_t ci = 0; ci + 1 < code_.size(); ++ci) {
      if (!name(ci) || !is(ci + 1, "(")) continue;
      const std::string_view n = text(ci);
      if (n != "add_argument" && n != "set_defaults" && n != "getattr") continue;
      const auto a = args(ci + 1);
      for (const Role r : {Backend, Device}) {
        auto& roles = r == Backend ? out.backend : out.device;
        const auto mark = [&](const Arg& v) {
          for (std::size_t i = v.first; i <= v.last; ++i)
            if (kind(i) == Kind::String) roles.insert(i);
        };
        if (n == "set_defaults") {
          for (const Arg& v : a)
            if (!v.kw.empty() && attrs_[r].count(std::string(v.kw))) mark(v);
        } else if (n == "getattr") {
          if (a.size() == 3 && a[1].kw.empty() && a[1].first == a[1].last && kind(a[1].first) == Kind::String &&
              attrs_[r].count(std::string(body(a[1].first))))
            mark(a[2]);
        } else if (attrs_[r].count(dest_of(a))) {
          for (const Arg& v : a)
            if (v.kw == "default" || v.kw == "choices" || v.kw == "const") mark(v);
        }
      }
    }
  }

  std::string_view body(std::size_t ci) const { return lex::py::split_string(text(ci)).body; }

  // argparse's dest: dest='...', else the first long option without dashes ('-' → '_').
  std::string dest_of(const std::vector<Arg>& a) const {
    std::string first_short;
    for (const Arg& v : a) {
      if (v.kw == "dest" && v.first == v.last && kind(v.first) == Kind::String) return std::string(body(v.first));
    }
    for (const Arg& v : a) {
      if (!v.kw.empty() || v.first != v.last || kind(v.first) != Kind::String) continue;
      std::string_view o = body(v.first);
      if (o.rfind("--", 0) == 0) {
        std::string d(o.substr(2));
        for (char& c : d)
          if (c == '-') c = '_';
        return d;
      }
      if (first_short.empty() && o.rfind("-", 0) == 0) first_short = std::string(o.substr(1));
    }
    return first_short;
  }

  std::string_view src_;
  const std::vector<Token>& toks_;
  const std::vector<std::size_t>& code_;
  std::set<std::size_t> in_sink_[2];
  std::set<std::string> paths_[2];
  std::set<std::string> attrs_[2];
};

}  // namespace

StringRoles find_string_roles(std::string_view src, const std::vector<Token>& toks,
                              const std::vector<std::size_t>& code) {
  return Finder(src, toks, code).run();
}

}  // namespace ferry::targets::torch_npu
