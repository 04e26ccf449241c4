#include "migrate/file_migration.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <optional>
#include <unordered_set>

#include "lex/ferry_marks.h"
#include "rewrite/roundtrip_record.h"
#include "rewrite/whole_lines.h"

namespace ferry::migrate {

namespace {

bool contains_marker(std::string_view comment, std::string_view marker) {
  const std::size_t at = comment.find("ferry:");
  if (at == std::string_view::npos) return false;
  std::string_view rest = comment.substr(at + 6);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.substr(0, marker.size()) != marker) return false;
  // Whole word: "ignore" must not match "ignore-next-line".
  const std::string_view after = rest.substr(marker.size());
  return after.empty() || !(after.front() == '-' || std::isalnum(static_cast<unsigned char>(after.front())));
}

}  // namespace

FileMigration::FileMigration(std::string path, std::string_view src, const targets::Target& target,
                             const targets::Options& options, const targets::ProjectContext& project)
    : lex::CodeView(src), path_(std::move(path)), target_(target), options_(options), project_(project) {
  stats_.bytes = src.size();
  stats_.lines = tokens().empty() ? 0 : tokens().back().line;
  compute_exclusions();
}

FileMigration::FileMigration(std::string path, lex::CodeView&& view, const targets::Target& target,
                             const targets::Options& options, const targets::ProjectContext& project)
    : lex::CodeView(std::move(view)), path_(std::move(path)), target_(target), options_(options), project_(project) {
  stats_.bytes = source().size();
  stats_.lines = tokens().empty() ? 0 : tokens().back().line;
  compute_exclusions();
}

std::vector<bool> excluded_lines(std::string_view src, const lex::TokenList& toks) {
  const std::uint32_t last_line = toks.empty() ? 1 : toks.back().line + 1;
  std::vector<bool> excluded(last_line + 2, false);
  if (src.find("ferry:") == std::string_view::npos) return excluded;  // no marker in any comment
  bool off = false;
  std::uint32_t off_from = 0;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (!lex::is_comment(toks.kind(i))) continue;
    const std::string_view c = src.substr(toks.begin(i), toks.end(i) - toks.begin(i));
    if (c.find("ferry:") == std::string_view::npos) continue;
    const std::uint32_t line = toks.line(i);
    if (contains_marker(c, "off")) {
      if (!off) off_from = line;
      off = true;
    } else if (contains_marker(c, "on")) {
      if (off)
        for (std::uint32_t l = off_from; l <= line && l < excluded.size(); ++l) excluded[l] = true;
      off = false;
    } else if (contains_marker(c, "ignore-next-line")) {
      if (line + 1 < excluded.size()) excluded[line + 1] = true;
    } else if (contains_marker(c, "ignore")) {
      excluded[line] = true;
    }
  }
  if (off)
    for (std::uint32_t l = off_from; l < excluded.size(); ++l) excluded[l] = true;
  return excluded;
}

// Most files hold no marker: the view's marks answer that without a search of the text, and
// excluded() reads an empty table as "no line excluded".
void FileMigration::compute_exclusions() {
  if (lex::source_mentions(*this, "ferry:")) excluded_line_ = excluded_lines(source(), tokens());
}

namespace {
// What a rule_of_name_ slot not looked up yet points to (never a rule of a table).
const rules::Rule* unknown_rule() {
  static const rules::Rule kUnknown{};
  return &kUnknown;
}
const targets::UnmappedApiName* unknown_unmapped() {
  static const targets::UnmappedApiName kUnknown{};
  return &kUnknown;
}
}  // namespace

const rules::Rule* FileMigration::identifier_rule(std::size_t ci) const {
  if (rule_of_name_.empty()) rule_of_name_.assign(name_count(), unknown_rule());
  const rules::Rule*& r = rule_of_name_[name_id(ci)];
  if (r == unknown_rule()) r = target_.rules().find_identifier(text(ci));
  return r;
}

const targets::UnmappedApiName* FileMigration::unmapped_api_name(std::size_t ci) const {
  if (unmapped_of_name_.empty()) unmapped_of_name_.assign(name_count(), unknown_unmapped());
  const targets::UnmappedApiName*& u = unmapped_of_name_[name_id(ci)];
  if (u == unknown_unmapped()) u = target_.unmapped_api_name(text(ci));
  return u;
}

bool FileMigration::insert_line_at_top(std::string line) {
  const std::string_view src = source();
  if (code_size() == 0) return false;
  std::size_t after = 0;  // code tokens of a leading #pragma once / guard opening
  if (is(0, "#") && is(1, "pragma") && is(2, "once")) after = 3;
  else if (is(0, "#") && is(1, "ifndef") && is(3, "#") && is(4, "define")) after = 6;
  std::uint32_t offset;
  if (after > 0) {
    const std::size_t nl = src.find('\n', code(after - 1).end);
    offset = static_cast<std::uint32_t>(nl == std::string_view::npos ? src.size() : nl + 1);
  } else {
    const std::uint32_t first = code(0).begin;
    const std::size_t nl = first == 0 ? std::string_view::npos : src.rfind('\n', first - 1);
    offset = nl == std::string_view::npos ? 0 : static_cast<std::uint32_t>(nl + 1);
  }
  if (offset == src.size() && !src.empty() && src.back() != '\n') line.insert(0, "\n");
  return edits_.insert(offset, std::move(line));
}

bool FileMigration::remove_include_line(std::size_t header_ci) {
  if (header_ci < 2 || !is(header_ci - 2, "#")) return false;
  const auto lines = rewrite::whole_lines(source(), code(header_ci - 2).begin, code(header_ci).end);
  return lines && edits_.replace(lines->first, lines->second, "");
}

bool FileMigration::replace(std::size_t first, std::size_t last, std::string text) {
  return edits_.replace(code(first).begin, code(last).end, std::move(text));
}

void FileMigration::diag(Diag code_id, Severity sev, std::size_t ci, std::string message, std::string hint) {
  const lex::Token& t = code(ci);
  diag_at_line(code_id, sev, t.line, t.col, std::move(message), std::move(hint));
}

void FileMigration::diag_at_line(Diag code_id, Severity sev, std::uint32_t line, std::uint32_t col, std::string message,
                                 std::string hint) {
  diags_.push_back(Diagnostic{code_id, sev, path_, line, col, std::move(message), std::move(hint)});
}

namespace {

// The project defines `name` itself where this file sees it (targets::hip's
// collect_user_compat_definitions: a name alone, or "PATH<TAB>NAME" for a `static` definition in a
// source file, which serves that file only).
bool user_defines_compat_name(const FileMigration& file, const std::string& name) {
  const auto& defs = file.project().user_compat_definitions;
  return defs.contains(name) || defs.contains(std::string(file.path()) + "\t" + name);
}

std::string status_hint(const rules::Rule& r) {
  std::string h(r.note);
  if (h.empty() && r.has_replacement()) h = "the " + std::string(r.to) + " equivalent is used";
  return h;
}

// Reports a rule whose status asks the user to look: unsupported, deprecated or changed.
void report_status(FileMigration& file, std::size_t ci, const rules::Rule& r) {
  switch (r.status) {
    case rules::Status::Supported: return;
    case rules::Status::Unsupported:
      file.count_unconverted(r.family);
      file.diag(
          Diag::ApiUnsupported, ci,
          "'" + std::string(r.from) + "' has no " + std::string(file.target().name()) + " equivalent (" +
              std::string(r.family) + "); left unchanged",
          r.note.empty() ? "rewrite this use by hand or guard it with a preprocessor check" : std::string(r.note));
      return;
    case rules::Status::Deprecated:
      file.diag(Diag::ApiDeprecated, ci,
                "'" + std::string(r.from) + "' is deprecated" +
                    (r.has_replacement() ? "; converted to '" + std::string(r.to) + "'" : std::string()),
                status_hint(r));
      return;
    case rules::Status::Changed:
      file.diag(Diag::ChangedSemantics, ci,
                "'" + std::string(r.from) + "'" +
                    (r.has_replacement() ? " → '" + std::string(r.to) + "'" : std::string()) +
                    " behaves differently on " + std::string(file.target().name()),
                status_hint(r));
      return;
  }
}

// The target's release lacks the replacement and no compat header gives it: the name is left
// as it is (a name that does not compile there would be worse), with FRY1301.
void report_missing(FileMigration& file, std::size_t ci, const rules::Rule& r) {
  file.count_unconverted(r.family);
  const std::string to(r.to.substr(0, r.to.find('(')));  // a call template's head
  file.diag(Diag::ReleaseLacksName, ci,
            "'" + std::string(r.from) + "' → '" + to + "' needs " +
                (r.since.is_none() ? "a release that has it" : "ROCm >= " + r.since.str()) + "; the target is " +
                file.target().release() + ": left unchanged",
            "migrate with --hip-version " + (r.since.is_none() ? std::string("X.Y") : r.since.str()) +
                " or later if you build with that release; else rewrite this use" +
                (r.note.empty() ? std::string() : " (" + std::string(r.note) + ")"));
}

// Segments of a call template: literal text or a reference to argument(s).
struct TemplatePart {
  std::string literal;
  std::size_t arg = npos;  // npos: literal
  bool rest = false;       // $N...
};

std::vector<TemplatePart> parse_template(std::string_view t) {
  std::vector<TemplatePart> parts;
  std::string lit;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '$' && i + 1 < t.size() && t[i + 1] >= '0' && t[i + 1] <= '9') {
      std::size_t j = i + 1, n = 0;
      while (j < t.size() && t[j] >= '0' && t[j] <= '9') n = n * 10 + (t[j++] - '0');
      const bool rest = t.substr(j, 3) == "...";
      if (rest) j += 3;
      parts.push_back({std::move(lit), npos, false});
      lit.clear();
      parts.push_back({{}, n, rest});
      i = j - 1;
    } else {
      lit.push_back(t[i]);
    }
  }
  parts.push_back({std::move(lit), npos, false});
  return parts;
}

// The number of arguments a template names ($0..$N), or npos when it takes a rest (`$N...`).
std::size_t template_arity(const std::vector<TemplatePart>& parts) {
  std::size_t n = 0;
  for (const TemplatePart& p : parts) {
    if (p.arg == npos) continue;
    if (p.rest) return npos;
    n = std::max(n, p.arg + 1);
  }
  return n;
}

// `f(a, k<T, U>)` splits into three arguments at the comma of the template argument list. When
// the call has more arguments than the template names, arguments whose `name<` is still open are
// joined with those that follow until it closes; the joined list is used when it has the
// template's arity (a template that drops a trailing argument keeps doing so, and a comparison
// `a < b, c > d` that happens to match stays a rare guess the count confirms).
// A template with `$N...` has no arity to confirm the join: there an argument is joined only when
// the angle bracket closes on the last token of a later argument (`kernel<T, D>` as the kernel of
// `cudaFuncSetAttribute(kernel<T, D>, attr, v)`), which a comparison `a < b, c > d` never does.
std::vector<ArgRange> join_template_commas(const FileMigration& file, const std::vector<ArgRange>& args,
                                           std::size_t arity) {
  if (arity != npos && args.size() <= arity) return args;
  std::vector<ArgRange> joined;
  int open_angles = 0;
  for (const ArgRange& a : args) {
    const bool continues = open_angles > 0 && !joined.empty();
    if (continues) joined.back().last = a.last;
    else joined.push_back(a);
    if (a.empty()) continue;
    for (std::size_t i = a.first; i <= a.last; ++i) {
      if (file.is(i, "<") && i > a.first && file.code(i - 1).kind == lex::Kind::Identifier) ++open_angles;
      else if (file.is(i, ">") && open_angles > 0) --open_angles;
      else if (file.is(i, ">>") && open_angles > 0) open_angles = std::max(0, open_angles - 2);
    }
    if (arity == npos && continues && open_angles == 0 && !file.is(a.last, ">") && !file.is(a.last, ">>")) return args;
  }
  if (open_angles != 0) return args;
  return arity == npos || joined.size() == arity ? joined : args;
}

// A call written over several lines keeps its line breaks where the template puts its own glue:
// the blanks after the call's `(` (the first gap, `first`) or after the comma before the next
// argument, when they hold a newline, replace the template's blanks there, so that
// `cudaFuncSetAttribute(\n    k, ...)` keeps its layout in HIP and comes back as written
// (docs/targets.md, "Round trips").
void keep_line_breaks(std::string_view old, std::string& glue, bool first) {
  const std::size_t old_sep = first ? old.find('(') : old.rfind(',');
  const std::size_t new_sep = first ? glue.find('(') : glue.rfind(',');
  if (old_sep == std::string_view::npos || new_sep == std::string::npos) return;
  const std::size_t old_end = old.find_first_not_of(" \t\r\n\\", old_sep + 1);  // `\` continues a macro
  const std::string_view blanks =
      old.substr(old_sep + 1, (old_end == std::string_view::npos ? old.size() : old_end) - old_sep - 1);
  if (blanks.find('\n') == std::string_view::npos) return;
  std::size_t new_end = glue.find_first_not_of(" \t", new_sep + 1);
  if (new_end == std::string::npos) new_end = glue.size();
  glue.replace(new_sep + 1, new_end - new_sep - 1, blanks);
}

// Rewrites a call `name(args)` at `ci` by its template. When the template keeps the arguments in
// their original order it edits only the glue between them, so renames inside the arguments
// still apply; otherwise it rewrites the call as a whole from the arguments' text.
bool apply_call_rule(FileMigration& file, std::size_t ci, const rules::Rule& r) {
  const std::size_t open = ci + 1;
  if (!file.is(open, "(")) return false;
  const std::size_t close = file.match_bracket(open);
  if (close == npos) return false;
  // A call whose arguments hold a record of more or other arguments than HIP's (`hipCtxCreate(&c,
  // /* ferry-cuda: &params, */ 0, d)`, `(dev) /* ferry-cuda: loc, 0 */`: rewrite/roundtrip_record.h)
  // is the CUDA call as it was written, once record_restore put them back: only its name changes.
  if (file.target().source_dialect() == "hip") {
    const auto& toks = file.tokens();
    for (std::size_t t = file.token_index(open) + 1; t < file.token_index(close); ++t) {
      if (toks[t].kind != lex::Kind::BlockComment) continue;
      const auto rec = rewrite::record::parse(toks[t].text(file.source()));
      if (!rec || *rec == rewrite::record::kNone || !rewrite::record::holds_arguments(*rec)) continue;
      const std::string_view to = r.to;
      std::size_t n = 0;
      while (n < to.size() && (std::isalnum(static_cast<unsigned char>(to[n])) || to[n] == '_')) ++n;
      return n > 0 && to[n] == '(' && file.replace(ci, ci, std::string(to.substr(0, n)));
    }
  }
  std::vector<TemplatePart> parts = parse_template(r.to);
  const std::vector<ArgRange> args = join_template_commas(file, file.call_args(open), template_arity(parts));
  // An argument the template wraps (`reinterpret_cast<const void*>($0)`, `HIP_SYMBOL($0)`) that
  // is already wrapped so is left as it is: code migrated before, or converted back and forth,
  // must not gain a second wrapper.
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
    if (parts[i].arg == npos || parts[i].arg >= args.size() || args[parts[i].arg].empty()) continue;
    std::string& before = parts[i - 1].literal;
    const std::size_t cut = i == 1 ? before.find('(') : before.rfind(", ");
    if (cut == std::string::npos) continue;
    const std::string wrapper = before.substr(cut + (i == 1 ? 1 : 2));
    const ArgRange& a = args[parts[i].arg];
    if (wrapper.empty() || wrapper.back() != '(' || parts[i + 1].literal.empty() ||
        parts[i + 1].literal.front() != ')' || !file.span_text(a.first, a.last).starts_with(wrapper))
      continue;
    before.resize(before.size() - wrapper.size());
    parts[i + 1].literal.erase(0, 1);
  }
  // A cast the CUDA -> HIP migration wraps around an argument (`reinterpret_cast<const void*>($0)`:
  // HIP takes void pointers where CUDA has typed overloads) is recorded, so that the way back gives
  // the argument as written (rewrite/roundtrip_record.h, span):
  // `(reinterpret_cast<const void*>(k)) /* ferry-cuda: k */`.
  if (file.target().name() == "hip" && file.target().source_dialect() == "cuda") {
    for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
      if (parts[i].arg == npos || parts[i].rest || parts[i].arg >= args.size() || args[parts[i].arg].empty()) continue;
      std::string& before = parts[i - 1].literal;
      std::string& after = parts[i + 1].literal;
      const std::size_t cut = i == 1 ? before.find('(') : before.rfind(", ");
      if (cut == std::string::npos || after.empty() || after.front() != ')') continue;
      const std::string_view wrapper = std::string_view(before).substr(cut + (i == 1 ? 1 : 2));
      if (!(wrapper.starts_with("reinterpret_cast<") || wrapper.starts_with("static_cast<") ||
            wrapper.starts_with("const_cast<")) ||
          wrapper.back() != '(')
        continue;
      const ArgRange& a = args[parts[i].arg];
      const std::string_view original = file.span_text(a.first, a.last);
      if (!rewrite::record::recordable(original)) continue;
      before.insert(before.size() - wrapper.size(), "(");
      after.insert(1, ") " + rewrite::record::make(original));
    }
  }

  // Arguments in their order, some perhaps left out (`hipsolverDgetrs(..., work, lwork, info)` ->
  // `cusolverDnDgetrs(..., info)`): glue edits, which drop the arguments left out and keep the others'
  // tokens for the rules that still apply to them; reordered: the call is written anew.
  bool in_order = true;
  std::size_t expect = 0;
  for (const TemplatePart& p : parts) {
    if (p.arg == npos) continue;
    if (p.arg < expect || (p.arg >= args.size() && !(p.rest && p.arg == args.size()))) {
      in_order = false;
      break;
    }
    expect = p.rest ? args.size() : p.arg + 1;
  }
  if (!in_order || expect > args.size()) {
    std::vector<std::string> texts;
    texts.reserve(args.size());
    for (const ArgRange& a : args) texts.emplace_back(file.span_text(a.first, a.last));
    std::string tmpl;
    for (const TemplatePart& p : parts)
      tmpl += p.arg == npos ? p.literal : "$" + std::to_string(p.arg) + (p.rest ? "..." : "");
    std::string out;
    if (!rules::expand_call_template(tmpl, texts, out)) return false;
    return file.replace(ci, close, std::move(out));
  }

  // Glue edits: text before arg0, between args, after the last.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> gaps;  // byte ranges to replace
  std::vector<std::string> glue;
  std::uint32_t cursor = file.code(ci).begin;
  std::string pending;
  for (const TemplatePart& p : parts) {
    if (p.arg == npos) {
      pending += p.literal;
      continue;
    }
    const std::size_t last_arg = p.rest ? args.size() : p.arg + 1;
    if (p.arg == last_arg) {  // empty "$N...": drop a dangling ", " before it
      if (pending.size() >= 2 && pending.compare(pending.size() - 2, 2, ", ") == 0) pending.resize(pending.size() - 2);
      continue;
    }
    const ArgRange& first = args[p.arg];
    const ArgRange& last = args[last_arg - 1];
    if (first.empty()) return false;
    gaps.emplace_back(cursor, file.code(first.first).begin);
    glue.push_back(std::move(pending));
    pending.clear();
    cursor = file.code(last.last).end;
    // a record after the argument (`warpSize /* ferry-cuda: 32 */`) is the argument's: record_restore's
    if (const std::size_t rc = rewrite::record::comment_after(file.tokens(), file.token_index(last.last));
        rc != SIZE_MAX && rewrite::record::is_record(file.tokens()[rc].text(file.source())))
      cursor = file.tokens()[rc].end;
  }
  gaps.emplace_back(cursor, file.code(close).end);
  glue.push_back(std::move(pending));
  for (std::size_t i = 0; i < gaps.size(); ++i)
    if (file.edits().overlaps(gaps[i].first, gaps[i].second)) return false;
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    const std::string_view old = file.source().substr(gaps[i].first, gaps[i].second - gaps[i].first);
    if (old == glue[i]) continue;
    if (i + 1 < gaps.size()) keep_line_breaks(old, glue[i], i == 0);
    file.replace_bytes(gaps[i].first, gaps[i].second, std::move(glue[i]));
  }
  return true;
}

// `#define NAME`: the identifier at `ci` is the macro being defined.
bool defines_macro(const FileMigration& file, std::size_t ci) {
  return ci >= 2 && file.code(ci).in_directive && file.is(ci - 1, "define") && file.is(ci - 2, "#") &&
         file.code(ci - 2).line == file.code(ci).line;
}

// A type word before code token ci (`float NAME`), not a keyword that starts an expression
// (`return NAME`, `case NAME`, `sizeof NAME`).
bool after_type_word(const FileMigration& file, std::size_t ci) {
  if (ci == 0 || file.code(ci - 1).kind != lex::Kind::Identifier || file.code(ci - 1).in_directive) return false;
  static constexpr std::string_view kNotTypes[] = {"return",   "else",   "case",      "do",       "throw",    "new",
                                                   "delete",   "sizeof", "co_return", "co_yield", "co_await", "typeid",
                                                   "decltype", "not",    "and",       "or",       "goto"};
  for (std::string_view k : kNotTypes)
    if (file.is(ci - 1, k)) return false;
  return true;
}

// The name of a function being declared or defined: a type word before it (`float NAME(`,
// not `return NAME(`), and `{`, `;` or a qualifier after its parameter list.
bool is_declarator(const FileMigration& file, std::size_t ci) {
  if (!file.is(ci + 1, "(") || file.code(ci).in_directive || !after_type_word(file, ci)) return false;
  const std::size_t close = file.match_bracket(ci + 1);
  if (close == npos || close + 1 >= file.code_size()) return false;
  const std::size_t after = close + 1;
  return file.is(after, "{") || file.is(after, ";") || file.is(after, "const") || file.is(after, "noexcept") ||
         file.is(after, "override") || file.is(after, "->");
}

// The name of a variable, member or parameter being declared: a type word before it (`int NAME;`,
// `float NAME = 0`, `f(int NAME)`), not an expression's operand (`return NAME;`).
bool declares_variable(const FileMigration& file, std::size_t ci) {
  if (ci + 1 >= file.code_size() || !after_type_word(file, ci)) return false;
  for (std::string_view next : {";", "=", ",", "[", ")", "{", ":"})
    if (file.is(ci + 1, next)) return true;
  return false;
}

// The tokens apply_rules' walk reads, ascending: identifiers whose name is `named` (by name id)
// or that stand before `::` or `;`, header names and a directive's '#'. Every other token the
// walk passes. They are marked in a bitmap from what points at them, never from a walk that reads
// every token's kind: the named names' occurrences (the name index has them); one pass over the
// code tokens' keys for `::`, `;` and '#'; and the first header name after each directive's
// `include`, `include_next` or `import` (the lexer makes a header name of the first `<...>` or
// `"..."` after one of those words in a directive, and of no other token).
lex::PodArray<std::uint32_t> rule_walk_tokens(const FileMigration& file, const std::vector<unsigned char>& named) {
  const std::size_t code_size = file.code_size();
  std::vector<std::uint64_t> marked((code_size + 63) / 64, 0);
  const auto mark = [&](std::size_t ci) { marked[ci / 64] |= std::uint64_t{1} << (ci % 64); };
  for (std::uint32_t id = 0; id < named.size(); ++id)
    if (named[id])
      for (const std::uint32_t ci : file.occurrences_of(id)) mark(ci);
  constexpr std::uint64_t kScope = lex::short_key("::"), kSemicolon = lex::short_key(";"), kHash = lex::short_key("#");
  for (std::size_t ci = 0; ci < code_size; ++ci) {
    const std::uint64_t key = file.key(ci);
    if (key == kScope || key == kSemicolon) {
      if (ci > 0 && file.is_identifier(ci - 1)) mark(ci - 1);
    } else if (key == kHash && file.in_directive(ci)) {
      mark(ci);
    }
  }
  for (const std::string_view word : {"include", "include_next", "import"})
    for (const std::uint32_t at : file.occurrences(word))
      for (std::size_t ci = at + 1; ci < code_size && file.in_directive(ci); ++ci)
        if (file.code(ci).kind == lex::Kind::HeaderName) {
          mark(ci);
          break;
        }
  lex::PodArray<std::uint32_t> visit;  // pages of its own, touched only as far as written
  visit.resize_uninitialized(code_size);
  std::size_t taken = 0;
  for (std::size_t w = 0; w < marked.size(); ++w)
    for (std::uint64_t bits = marked[w]; bits != 0; bits &= bits - 1)
      visit[taken++] = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
  visit.resize_uninitialized(taken);
  return visit;
}

}  // namespace

void apply_rules(FileMigration& file, const rules::RuleSet& rules) {
  // Header paths included so far, as they read after migration. Forgotten at every conditional
  // directive: two includes in different #if branches are not duplicates.
  std::vector<std::string> included;
  // Names this file #defines: call templates leave their uses alone.
  std::unordered_set<std::string_view> user_macros;
  for (const std::uint32_t d : file.occurrences("define"))  // `# define NAME`
    if (const std::size_t ci = d + 1; file.is_identifier(ci) && defines_macro(file, ci))
      user_macros.insert(file.text(ci));
  // `cooperative_groups` and the aliases the file gives it (`namespace cg = cooperative_groups;`):
  // the coop_groups rules apply to the names they qualify (`cg::binary_partition` is reported).
  std::unordered_set<std::string_view> cg_scopes = {"cooperative_groups"};
  for (const std::uint32_t at : file.occurrences("cooperative_groups"))
    if (const std::size_t ci = at - 2; at >= 3 && ci + 3 < file.code_size() && file.is(ci - 1, "namespace") &&
                                       file.is_identifier(ci) && file.is(ci + 1, "=") && file.is(ci + 3, ";"))
      cg_scopes.insert(file.text(ci));
  // The target's own table (migrate_buffer): its rules are looked up once per name of the file.
  const bool own_table = &rules == &file.target().rules();
  // Per name: whether it has a rule or is an unmapped API name. Most identifiers have neither, are
  // no namespace a row could name (`ns::`, `namespace ns;`) and no unmapped API name: nothing below
  // applies to them, so the walk passes them on this table and the next token's key alone.
  std::vector<unsigned char> named(file.name_count(), 0);
  for (std::uint32_t id = 0; id < named.size(); ++id) {
    const std::size_t first = file.occurrences_of(id).front();
    named[id] = (own_table ? file.identifier_rule(first) : rules.find_identifier(file.name_text(id))) != nullptr ||
                file.unmapped_api_name(first) != nullptr;
  }
  const lex::PodArray<std::uint32_t> visit = rule_walk_tokens(file, named);
  for (const std::size_t ci : visit) {
    const lex::Token& t = file.code(ci);
    if (t.in_directive && file.is(ci, "#") && ci + 1 < file.code_size()) {
      const std::string_view d = file.text(ci + 1);
      if (d == "if" || d == "ifdef" || d == "ifndef" || d == "elif" || d == "else" || d == "endif") included.clear();
    }
    if (t.kind == lex::Kind::HeaderName) {
      const std::string_view raw = file.text(ci);
      const std::string_view path = raw.substr(1, raw.size() - 2);
      const rules::Rule* r = rules.find_header(path);
      // Framework code puts the toolkit root on -I and writes "include/cuda_fp16.h" (or
      // ".../targets/x86_64-linux/include/cuda_runtime.h"): the header after the last include/
      // directory is the toolkit's.
      std::string_view suffix;
      if (!r) {
        const std::size_t at = path.rfind("include/");
        if (at != std::string_view::npos && (at == 0 || path[at - 1] == '/')) {
          suffix = path.substr(at + 8);
          r = rules.find_header(suffix);
        }
      }
      if (!r || file.excluded(ci) || file.touched(ci)) {
        included.emplace_back(path);
        continue;
      }
      if (r->availability != rules::Availability::Available) {  // a Compat one the target did not take
        included.emplace_back(path);
        report_missing(file, ci, *r);
        continue;
      }
      const std::string_view after = r->has_replacement() ? std::string_view(r->to) : path;
      if (std::find(included.begin(), included.end(), after) != included.end() && r->to != path &&
          file.remove_include_line(ci)) {
        file.count_converted(r->family);
        continue;
      }
      included.emplace_back(after);
      if (r->has_replacement() && r->to != path) {
        std::string repl;
        repl.push_back(raw.front());
        repl += r->to;
        repl.push_back(raw.back());
        if (file.replace(ci, ci, std::move(repl))) {
          file.count_converted(r->family);
          if (!suffix.empty())
            file.diag(Diag::HeaderViaToolkitPrefix, ci,
                      "'" + std::string(path) + "' is the toolkit's " + std::string(suffix) +
                          " included through an include/ directory; mapped to '" + std::string(r->to) + "'",
                      "include it as <" + std::string(suffix) +
                          "> (the toolkit's include directory is "
                          "on the search path) so that other tools recognise it");
        }
      }
      report_status(file, ci, *r);
      continue;
    }
    if (t.kind != lex::Kind::Identifier) continue;
    const std::string_view name = file.text(ci);
    if (file.excluded(ci) || file.touched(ci)) continue;

    if (file.is(ci + 1, "::")) {
      // `ns::` unqualified, or `outer::ns::` when a rule names the qualified form
      // (`thrust::cuda` → `thrust::hip`, while libcu++'s own `cuda::` is left alone).
      const rules::Rule* ns = nullptr;
      if (!file.is_member_or_qualified(ci)) ns = rules.find_namespace(name);
      else if (ci >= 2 && file.is(ci - 1, "::") && file.is_identifier(ci - 2))
        ns = rules.find_namespace(std::string(file.text(ci - 2)) + "::" + std::string(name));
      if (ns) {
        std::string_view to = ns->to;
        if (const std::size_t last = to.rfind("::"); last != std::string_view::npos) to.remove_prefix(last + 2);
        if (ns->has_replacement() && to != name && file.replace(ci, ci, std::string(to)))
          file.count_converted(ns->family);
        report_status(file, ci, *ns);
        continue;
      }
    }
    // `using namespace rocwmma;`, `namespace wmma = rocwmma;`, `namespace cb = hipcub;`: a namespace
    // row's name where the language names a namespace without `::` after it. The whole
    // replacement is written (`nvcuda::wmma`), since nothing qualifies it here.
    if (file.is(ci + 1, ";") && !file.is_member_or_qualified(ci) &&
        ((ci >= 2 && file.is(ci - 1, "namespace") && file.is(ci - 2, "using")) ||
         (ci >= 3 && file.is(ci - 1, "=") && file.is_identifier(ci - 2) && file.is(ci - 3, "namespace")))) {
      if (const rules::Rule* ns = rules.find_namespace(name); ns && ns->from.find("::") == std::string::npos) {
        if (ns->has_replacement() && ns->to != name && file.replace(ci, ci, std::string(ns->to)))
          file.count_converted(ns->family);
        report_status(file, ci, *ns);
        continue;
      }
    }
    const rules::Rule* r = own_table ? file.identifier_rule(ci) : rules.find_identifier(name);
    if (!r) {
      // A name the source dialect's headers declare that no rule maps: reported, not passed on in
      // silence. A project's own macro, type, enumerator, function or variable of that name is the user's.
      if (const targets::UnmappedApiName* api = file.unmapped_api_name(ci);
          api && !file.is_member_or_qualified(ci) && !file.code(ci).in_directive && !user_macros.contains(name) &&
          !file.project().defined_macros.contains(std::string(name)) &&
          !file.project().declared_api_names.contains(std::string(name)) && !is_declarator(file, ci) &&
          !declares_variable(file, ci)) {
        file.count_unconverted(api->family);
        const bool from_cuda = file.target().source_dialect() == "cuda";
        file.diag(Diag::ApiUnmapped, ci,
                  "'" + std::string(name) + "' (" + api->where + ") has no rule for " +
                      std::string(file.target().name()) + "; left unchanged",
                  std::string("look for an equivalent in the target's API; if there is one, map it with --rules FILE "
                              "(a row: kind, name, target name, family, supported), else rewrite this use or keep it "
                              "for ") +
                      (from_cuda ? "NVIDIA builds (#ifdef __HIP_PLATFORM_NVIDIA__)"
                                 : "AMD builds (#ifdef __HIP_PLATFORM_AMD__)"));
      }
      continue;
    }
    // `#define cudaDataType_t hipblasDatatype_t`, `#define __CUDA_ARCH__ 1300`: a project's own
    // mapping of a source API name (a vendor shim). Renamed, it would redefine the name the target
    // provides (`#define hipDataType ...`, `#define __HIP_DEVICE_COMPILE__ 1300`, which hides the
    // HIP headers' host declarations). The definition keeps its name; its uses are renamed as
    // everywhere, to the target's own. A replacement the target release lacks is still renamed:
    // then the project's definition provides it. The way back of a round trip renames it too: a
    // definition that reaches it under the target's name was renamed on the way there
    // (`#define CUDART_PI_F` became `#define HIP_PI_F` for HIP < 5.3), and comes back as written.
    const bool way_back = !file.project().migrated_by.empty() && file.project().migrated_by != file.target().name();
    if (!way_back &&
        (defines_macro(file, ci) || (ci >= 2 && t.in_directive && file.is(ci - 1, "undef") && file.is(ci - 2, "#"))) &&
        r->has_replacement() && r->to != name && r->availability == rules::Availability::Available) {
      file.diag(Diag::DefinedApiNameKept, ci,
                "'" + std::string(name) + "' is defined by the project here; renamed to '" + std::string(r->to) +
                    "' it would redefine the target's own name: the definition keeps its name",
                "its uses are renamed to '" + std::string(r->to) +
                    "', which the target provides; drop the definition if it only served the source build");
      continue;
    }
    // An enumerator qualified by its own enum type, which a rule renames too
    // (`hipfftType::HIPFFT_D2Z` → `cufftType::CUFFT_D2Z`): the qualifier is not a scope we keep.
    const bool enum_scope = r->kind == rules::RuleKind::Enum && ci >= 2 && file.is(ci - 1, "::") &&
                            file.is_identifier(ci - 2) && !file.is_member_or_qualified(ci - 2) && [&] {
                              const rules::Rule* q = rules.find_identifier(file.text(ci - 2));
                              return q && q->kind == rules::RuleKind::Type && q->has_replacement();
                            }();
    const bool cg_scope = r->family == "coop_groups" && ci >= 2 && file.is(ci - 1, "::") &&
                          file.is_identifier(ci - 2) && cg_scopes.contains(file.text(ci - 2)) &&
                          !file.is_member_or_qualified(ci - 2);
    if (file.is_member_or_qualified(ci) && !enum_scope && !cg_scope) continue;
    if (r->availability == rules::Availability::Missing) {
      report_missing(file, ci, *r);
      continue;
    }
    if (r->availability == rules::Availability::Compat && !user_defines_compat_name(file, std::string(r->to)))
      file.require_compat(std::string(r->compat), std::string(r->to), ci);
    if (r->kind == rules::RuleKind::Call) {
      // The name of a macro or function the user defines is theirs, not a call: a compat
      // header's `#define HIP_DYNAMIC_SHARED(T, n) ...` and its uses (in this file or any file of
      // the project: ProjectContext::defined_macros), a shim `float __shfl_xor(float v, int m) {`
      // keep their text (renames still apply to them).
      if (defines_macro(file, ci) || user_macros.contains(name) ||
          file.project().defined_macros.contains(std::string(name)) || is_declarator(file, ci))
        continue;
      if (apply_call_rule(file, ci, *r)) {
        file.count_converted(r->family);
        report_status(file, ci, *r);
        continue;
      }
      // Not a call we can parse (taken by address, macro argument...): fall back to the bare
      // name inside the template, if it starts with one.
      const std::string_view to = r->to;
      std::size_t n = 0;
      while (n < to.size() && (std::isalnum(static_cast<unsigned char>(to[n])) || to[n] == '_')) ++n;
      if (n > 0 && file.replace(ci, ci, std::string(to.substr(0, n)))) file.count_converted(r->family);
      file.diag(Diag::CallRuleNotCalled, ci,
                "'" + std::string(r->from) + "' is not used as a plain call; only its name was converted",
                "the arguments of " + std::string(r->from) + " change in the target (" + std::string(r->to) +
                    "): check this use by hand");
      continue;
    }
    if (r->has_replacement() && r->to != name) {
      if (file.replace(ci, ci, std::string(r->to))) file.count_converted(r->family);
    } else if (r->status == rules::Status::Supported) {
      file.count_converted(r->family);  // same name in the target: supported as is
    }
    report_status(file, ci, *r);
  }
}

FileResult migrate_buffer(std::string path, std::string_view src, const targets::Target& target,
                          const targets::Options& options, const targets::ProjectContext& project,
                          lex::CodeView* lexed) {
  PhaseClock clock(options.timings);
  FileMigration file = lexed && lexed->source().data() == src.data() && lexed->source().size() == src.size()
                           ? FileMigration(std::move(path), std::move(*lexed), target, options, project)
                           : FileMigration(std::move(path), src, target, options, project);
  clock.lap("lex + exclusions");
  target.run_passes(file);
  clock.reset();  // the passes timed themselves
  apply_rules(file, target.rules());
  clock.lap("apply_rules");
  target.finish_file(file);
  clock.reset();
  FileResult result;
  result.output = file.edits().apply(src, &result.line_map);
  file.stats().edits = file.edits().size();
  clock.lap("apply edits");
  result.diagnostics = std::move(file.diagnostics());
  sort_diagnostics(result.diagnostics);
  clock.lap("sort diagnostics");
  result.stats = std::move(file.stats());
  result.side_outputs = std::move(file.side_outputs());
  return result;
}

}  // namespace ferry::migrate
