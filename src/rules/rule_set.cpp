#include "rules/rule_set.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>

#include "core/split.h"
#include "core/text.h"

namespace ferry::rules {

namespace {

bool parse_kind(std::string_view s, RuleKind& k) {
  static const std::pair<std::string_view, RuleKind> kTable[] = {
      {"func", RuleKind::Func},   {"type", RuleKind::Type},     {"enum", RuleKind::Enum},
      {"macro", RuleKind::Macro}, {"header", RuleKind::Header}, {"namespace", RuleKind::Namespace},
      {"call", RuleKind::Call}};
  for (const auto& [name, kind] : kTable)
    if (s == name) return k = kind, true;
  return false;
}

bool parse_status(std::string_view s, Status& st) {
  static const std::pair<std::string_view, Status> kTable[] = {{"supported", Status::Supported},
                                                               {"unsupported", Status::Unsupported},
                                                               {"deprecated", Status::Deprecated},
                                                               {"changed", Status::Changed}};
  for (const auto& [name, status] : kTable)
    if (s == name) return st = status, true;
  return false;
}

}  // namespace

std::string_view to_string(RuleKind k) {
  switch (k) {
    case RuleKind::Func: return "func";
    case RuleKind::Type: return "type";
    case RuleKind::Enum: return "enum";
    case RuleKind::Macro: return "macro";
    case RuleKind::Header: return "header";
    case RuleKind::Namespace: return "namespace";
    case RuleKind::Call: return "call";
  }
  return "?";
}

std::string_view to_string(Status s) {
  switch (s) {
    case Status::Supported: return "supported";
    case Status::Unsupported: return "unsupported";
    case Status::Deprecated: return "deprecated";
    case Status::Changed: return "changed";
  }
  return "?";
}

std::string Rule::origin() const {
  return line == 0 ? std::string(table) : std::string(table) + ":" + std::to_string(line);
}

RuleSet::Index& RuleSet::index_for(RuleKind k) {
  if (k == RuleKind::Header) return headers_;
  if (k == RuleKind::Namespace) return namespaces_;
  return identifiers_;
}

namespace {

std::size_t identifier_head(std::string_view name) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(name[0])) << 8) |
         (name.size() > 1 ? static_cast<unsigned char>(name[1]) : 0u);
}

std::size_t hash_of(std::string_view s) { return std::hash<std::string_view>{}(s); }

}  // namespace

Rule* RuleSet::Index::find(std::string_view key) const {
  if (slots_.empty()) return nullptr;
  const std::size_t h = hash_of(key);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.rule) return nullptr;
    if (s.hash == h && s.rule->from == key) return s.rule;
  }
}

Rule* RuleSet::Index::insert(Rule* rule) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::size_t h = hash_of(rule->from);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (!s.rule) {
      s = {rule, h};
      ++size_;
      return rule;
    }
    if (s.hash == h && s.rule->from == rule->from) return s.rule;
  }
}

void RuleSet::Index::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.rule) continue;
    std::size_t i = s.hash & mask;
    while (slots_[i].rule) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

std::string_view RuleSet::TextStore::keep(std::string_view s) {
  constexpr std::size_t kBlock = 16384;
  if (s.empty()) return {};
  if (s.size() > kBlock / 4) {  // a text of its own (a user's table): before the block being filled
    auto own = std::make_unique<char[]>(s.size());
    std::copy(s.begin(), s.end(), own.get());
    const std::string_view kept(own.get(), s.size());
    blocks_.insert(blocks_.empty() ? blocks_.end() : blocks_.end() - 1, std::move(own));
    if (blocks_.size() == 1) used_ = kBlock;  // no block being filled yet: the next one starts one
    return kept;
  }
  if (blocks_.empty() || used_ + s.size() > kBlock) {
    blocks_.push_back(std::make_unique<char[]>(kBlock));
    used_ = 0;
  }
  char* at = blocks_.back().get() + used_;
  std::copy(s.begin(), s.end(), at);
  used_ += s.size();
  return {at, s.size()};
}

void RuleSet::add(const Rule& rule, Merge merge) {
  Rule kept = rule;
  for (std::string_view* field : {&kept.from, &kept.to, &kept.family, &kept.note, &kept.compat, &kept.table})
    *field = text_.keep(*field);
  add_kept(std::move(kept), merge);
}

void RuleSet::add_kept(Rule&& rule, Merge merge) {
  Index& index = index_for(rule.kind);
  if (&index == &identifiers_ && !rule.from.empty()) {
    const std::size_t h = identifier_head(rule.from);
    identifier_heads_[h / 64] |= 1ull << (h % 64);
  }
  if (Rule* owner = index.find(rule.from)) {
    if (merge == Merge::RejectDuplicates) {
      throw RuleError(rule.origin() + ": duplicate rule for '" + std::string(rule.from) + "' (first defined at " +
                      owner->origin() + ")");
    }
    *owner = std::move(rule);  // in place: the key is the same text
    return;
  }
  Rule& owner = rules_.emplace_back(std::move(rule));
  order_.push_back(&owner);
  index.insert(&owner);
}

void RuleSet::load_table(std::string_view text, std::string_view origin, Merge merge) {
  parse(text_.keep(text), text_.keep(origin), merge);
}

void RuleSet::load_static_table(std::string_view text, std::string_view origin, Merge merge) {
  parse(text, text_.keep(origin), merge);
}

void RuleSet::parse(std::string_view text, std::string_view origin, Merge merge) {
  std::size_t line_no = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view raw = text.substr(start, nl - start);
    start = nl + 1;
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') {
      if (nl == text.size()) break;
      continue;
    }
    const auto where = [&] { return std::string(origin) + ":" + std::to_string(line_no); };
    // The fields, up to one more than a row may have (to tell "too many").
    std::array<std::string_view, 8> f;
    std::size_t fields = 0;
    for (std::size_t at = 0;;) {
      const std::size_t tab = line.find('\t', at);
      f[fields++] = line.substr(at, tab == std::string_view::npos ? std::string_view::npos : tab - at);
      if (tab == std::string_view::npos || fields == f.size()) break;
      at = tab + 1;
    }
    if (fields < 5 || fields > 7) {
      const std::size_t found = fields < f.size() ? fields : split(line, '\t').size();
      throw RuleError(where() +
                      ": expected 5 to 7 tab-separated fields (kind, from, to, family, "
                      "status[, since][, note]), found " +
                      std::to_string(found));
    }
    Rule r;
    if (!parse_kind(trim(f[0]), r.kind))
      throw RuleError(where() + ": unknown kind '" + std::string(f[0]) +
                      "' (func, type, enum, macro, header, namespace, call)");
    if (!parse_status(trim(f[4]), r.status))
      throw RuleError(where() + ": unknown status '" + std::string(f[4]) +
                      "' (supported, unsupported, deprecated, changed)");
    r.from = trim(f[1]);
    r.to = trim(f[2]);
    r.family = trim(f[3]);
    // Field 6 is `since` when it reads as one ("-" or X.Y), else the note of a row written in
    // the older five-plus-note format; with seven fields it must be `since`.
    std::size_t note_at = 5;
    if (fields >= 6) {
      const std::string_view since = trim(f[5]);
      const std::optional<Version> v = since == "-"      ? std::optional<Version>(Version{})
                                       : since == "none" ? std::optional<Version>(Version::none())
                                                         : Version::parse(since);
      if (v) {
        r.since = *v;
        note_at = 6;
      } else if (fields == 7) {
        throw RuleError(where() + ": field 6 (since) must be '-', 'none' or a version such as 5.3, not '" +
                        std::string(since) + "'");
      }
    }
    if (fields > note_at) r.note = trim(f[note_at]);
    r.table = origin;
    r.line = static_cast<std::uint32_t>(line_no);
    if (r.kind == RuleKind::Namespace) {
      // A namespace may be given qualified by its enclosing one: `thrust::cuda`.
      std::string_view rest = r.from;
      for (std::size_t at; (at = rest.find("::")) != std::string_view::npos; rest.remove_prefix(at + 2))
        if (!is_identifier(rest.substr(0, at)))
          throw RuleError(where() + ": '" + std::string(r.from) + "' is not a namespace name");
      if (!is_identifier(rest)) throw RuleError(where() + ": '" + std::string(r.from) + "' is not a namespace name");
    } else if (r.kind != RuleKind::Header && !is_identifier(r.from)) {
      throw RuleError(where() + ": '" + std::string(r.from) + "' is not an identifier");
    }
    if (r.from.empty() || r.family.empty()) throw RuleError(where() + ": empty field");
    if (r.kind == RuleKind::Call && !r.has_replacement()) throw RuleError(where() + ": a call rule needs a template");
    add_kept(std::move(r), merge);
    if (nl == text.size()) break;
  }
}

const Rule* RuleSet::find_identifier(std::string_view name) const {
  if (!name.empty()) {
    const std::size_t h = identifier_head(name);
    if (!(identifier_heads_[h / 64] & (1ull << (h % 64)))) return nullptr;
  }
  return identifiers_.find(name);
}
const Rule* RuleSet::find_header(std::string_view path) const { return headers_.find(path); }
const Rule* RuleSet::find_namespace(std::string_view name) const { return namespaces_.find(name); }

std::map<std::string, std::map<std::string, std::size_t>> RuleSet::stats() const {
  std::map<std::string, std::map<std::string, std::size_t>> out;
  for (const Rule& r : rules_) ++out[std::string(r.family)][std::string(to_string(r.status))];
  return out;
}

bool expand_call_template(std::string_view tmpl, const std::vector<std::string>& args, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$' || i + 1 >= tmpl.size() || tmpl[i + 1] < '0' || tmpl[i + 1] > '9') {
      out.push_back(tmpl[i]);
      continue;
    }
    std::size_t j = i + 1;
    std::size_t index = 0;
    while (j < tmpl.size() && tmpl[j] >= '0' && tmpl[j] <= '9') index = index * 10 + (tmpl[j++] - '0');
    const bool rest = tmpl.substr(j, 3) == "...";
    if (rest) {
      // "$N..." may be empty; a preceding ", " in the template is dropped with it.
      if (index > args.size()) return false;
      if (index == args.size()) {
        if (out.size() >= 2 && out.compare(out.size() - 2, 2, ", ") == 0) out.resize(out.size() - 2);
      }
      for (std::size_t a = index; a < args.size(); ++a) {
        if (a > index) out += ", ";
        out += args[a];
      }
      j += 3;
    } else {
      if (index >= args.size()) return false;
      out += args[index];
    }
    i = j - 1;
  }
  return true;
}

}  // namespace ferry::rules
