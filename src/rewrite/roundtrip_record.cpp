// The source round-trip record (roundtrip_record.h states the forms and their restore rules).
#include "rewrite/roundtrip_record.h"

#include "core/text.h"

namespace ferry::rewrite::record {

namespace {
// The comment forms of both directions: OPEN original CLOSE.
std::string wrap(std::string_view open, std::string_view original, std::string_view close) {
  std::string out(open);
  out += original;
  out += close;
  return out;
}
std::optional<std::string_view> unwrap(std::string_view comment, std::string_view open, std::string_view close) {
  if (!comment.starts_with(open) || !comment.ends_with(close) || comment.size() < open.size() + close.size())
    return std::nullopt;
  return comment.substr(open.size(), comment.size() - open.size() - close.size());
}
}  // namespace

bool recordable(std::string_view original) { return original.find("*/") == std::string_view::npos; }

std::string make(std::string_view original) { return wrap(kOpen, original, kClose); }

std::optional<std::string_view> parse(std::string_view comment) { return unwrap(comment, kOpen, kClose); }

std::string span(std::string_view rewritten, std::string_view original) {
  if (!recordable(original)) return std::string(rewritten);
  std::string out = "(";
  out += rewritten;
  out += ") ";
  out += make(original);
  return out;
}

bool span_can_open(const lex::CodeView& v, std::size_t ci) {
  if (ci == 0) return true;
  const std::size_t p = ci - 1;
  // the end of a directive line before (`#if (X >= 530)`) is no operand of what follows
  if (v.code(p).in_directive && !v.code(ci).in_directive) return true;
  if (v.is(p, "return") || v.is(p, "case") || v.is(p, "throw") || v.is(p, "else")) return true;
  return !(v.is_identifier(p) || v.is(p, ")") || v.is(p, "]") || v.is(p, ">") || v.is(p, "*") || v.is(p, ".") ||
           v.is(p, "->"));
}

bool holds_arguments(std::string_view rec) {
  int depth = 0;
  for (char c : rec) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) return true;
  }
  return false;
}

bool is_word(std::string_view rec) {
  const std::size_t end = rec.find_last_not_of(" \t");
  return end != std::string_view::npos && end + 1 < rec.size() && ferry::is_identifier(rec.substr(0, end + 1));
}

std::string dropped_word(std::string_view word_and_blanks) {
  return is_word(word_and_blanks) ? make(word_and_blanks) : std::string();
}

bool is_spelling(std::string_view rec) {
  for (std::string_view keyword : {"struct", "union", "enum"}) {
    if (!rec.starts_with(keyword) || rec.size() == keyword.size() ||
        (rec[keyword.size()] != ' ' && rec[keyword.size()] != '\t'))
      continue;
    rec.remove_prefix(keyword.size());
    while (!rec.empty() && (rec.front() == ' ' || rec.front() == '\t')) rec.remove_prefix(1);
    break;
  }
  // a qualified name (`wmma::precision::tf32`): identifiers joined by `::`
  for (std::size_t b = 0;;) {
    const std::size_t e = rec.find("::", b);
    if (!ferry::is_identifier(rec.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b)))
      return false;
    if (e == std::string_view::npos) return true;
    b = e + 2;
  }
}

bool is_type_words(std::string_view rec) {
  if (rec.empty()) return false;
  for (std::size_t b = 0; b <= rec.size();) {
    std::size_t e = rec.find(' ', b);
    if (e == std::string_view::npos) e = rec.size();
    if (!ferry::is_identifier(rec.substr(b, e - b))) return false;
    b = e + 1;
  }
  return true;
}

bool is_literal(std::string_view rec) {
  if (rec.empty() || rec.front() < '0' || rec.front() > '9') return false;
  for (char c : rec)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '\''))
      return false;
  return true;
}

bool is_record(std::string_view comment) { return comment.starts_with(kOpen); }

bool mentions(std::string_view text) { return text.find(kMark) != std::string_view::npos; }

bool mentioned_after(const lex::TokenList& toks, std::string_view src, std::size_t ti) {
  if (ti >= toks.size()) return false;
  const std::uint32_t line = toks[ti].line;
  for (std::size_t k = ti + 1; k < toks.size() && lex::is_trivia(toks[k].kind); ++k) {
    if (toks[k].line != line) break;
    if (lex::is_comment(toks[k].kind) && mentions(toks[k].text(src))) return true;
  }
  return false;
}

std::size_t comment_after(const lex::TokenList& toks, std::size_t ti) {
  for (std::size_t k = ti + 1; k < toks.size(); ++k) {
    if (toks[k].kind == lex::Kind::Whitespace) continue;
    return toks[k].kind == lex::Kind::BlockComment ? k : SIZE_MAX;
  }
  return SIZE_MAX;
}

namespace {
// The record of either direction in the comment right after token `ti`, read by `parse_record`.
template <class Parse>
std::optional<Found> found_after(const lex::TokenList& toks, std::string_view src, std::size_t ti, Parse parse_record) {
  const std::size_t c = comment_after(toks, ti);
  if (c == SIZE_MAX) return std::nullopt;
  const auto rec = parse_record(toks[c].text(src));
  if (!rec) return std::nullopt;
  return Found{c, *rec};
}
}  // namespace

std::optional<Found> after(const lex::TokenList& toks, std::string_view src, std::size_t ti) {
  return found_after(toks, src, ti, parse);
}

std::optional<std::string_view> header_path(std::string_view rec) {
  if (rec.starts_with("#include ")) rec.remove_prefix(9);
  if (rec.size() < 2 || (rec.front() != '<' && rec.front() != '"')) return std::nullopt;
  const std::size_t close = rec.find(rec.front() == '<' ? '>' : '"', 1);
  if (close == std::string_view::npos) return std::nullopt;
  return rec.substr(1, close - 1);
}

std::vector<std::string> recorded_headers(const lex::TokenList& toks, std::string_view src) {
  std::vector<std::string> out;
  for (const lex::Token& t : toks) {
    if (t.kind != lex::Kind::BlockComment) continue;
    const auto rec = parse(t.text(src));
    if (!rec) continue;
    if (const auto path = header_path(*rec)) out.emplace_back(*path);
  }
  return out;
}

bool records_header(const lex::TokenList& toks, std::string_view src, std::string_view header) {
  for (const lex::Token& t : toks) {
    if (t.kind != lex::Kind::BlockComment) continue;
    const auto rec = parse(t.text(src));
    if (rec && rec->size() == header.size() + 2 && rec->front() == '<' && rec->substr(1, header.size()) == header &&
        rec->back() == '>')
      return true;
  }
  return false;
}

namespace to_hip {
std::string make(std::string_view original) { return wrap(kOpen, original, kClose); }
std::optional<std::string_view> parse(std::string_view comment) { return unwrap(comment, kOpen, kClose); }
std::optional<Found> after(const lex::TokenList& toks, std::string_view src, std::size_t ti) {
  return found_after(toks, src, ti, parse);
}
}  // namespace to_hip

}  // namespace ferry::rewrite::record
