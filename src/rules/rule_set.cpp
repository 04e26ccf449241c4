#include "rules/rule_set.h"

#include <charconv>
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

RuleSet::Index& RuleSet::index_for(RuleKind k) {
  if (k == RuleKind::Header) return headers_;
  if (k == RuleKind::Namespace) return namespaces_;
  return identifiers_;
}
const RuleSet::Index& RuleSet::index_for(RuleKind k) const { return const_cast<RuleSet*>(this)->index_for(k); }

namespace {
std::size_t identifier_head(std::string_view name) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(name[0])) << 8) |
         (name.size() > 1 ? static_cast<unsigned char>(name[1]) : 0u);
}
}  // namespace

void RuleSet::add(Rule rule, Merge merge) {
  Index& index = index_for(rule.kind);
  if (&index == &identifiers_ && !rule.from.empty()) {
    const std::size_t h = identifier_head(rule.from);
    identifier_heads_[h / 64] |= 1ull << (h % 64);
  }
  if (auto it = index.find(rule.from); it != index.end()) {
    if (merge == Merge::RejectDuplicates) {
      throw RuleError(rule.origin + ": duplicate rule for '" + rule.from + "' (first defined at " + it->second->origin +
                      ")");
    }
    // Override in place; the key viewed the old `from`, so re-key on the new one.
    Rule* owner = it->second;
    *owner = std::move(rule);
    index.erase(it);
    index.emplace(owner->from, owner);
    return;
  }
  rules_.push_back(std::make_unique<Rule>(std::move(rule)));
  Rule* owner = rules_.back().get();
  index.emplace(owner->from, owner);
}

void RuleSet::load_table(std::string_view text, std::string_view origin, Merge merge) {
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
    const std::string where = std::string(origin) + ":" + std::to_string(line_no);
    const auto f = split(line, '\t');
    if (f.size() < 5 || f.size() > 7) {
      throw RuleError(where +
                      ": expected 5 to 7 tab-separated fields (kind, from, to, family, "
                      "status[, since][, note]), found " +
                      std::to_string(f.size()));
    }
    Rule r;
    if (!parse_kind(trim(f[0]), r.kind))
      throw RuleError(where + ": unknown kind '" + std::string(f[0]) +
                      "' (func, type, enum, macro, header, namespace, call)");
    if (!parse_status(trim(f[4]), r.status))
      throw RuleError(where + ": unknown status '" + std::string(f[4]) +
                      "' (supported, unsupported, deprecated, changed)");
    r.from = std::string(trim(f[1]));
    r.to = std::string(trim(f[2]));
    r.family = std::string(trim(f[3]));
    // Field 6 is `since` when it reads as one ("-" or X.Y), else the note of a row written in
    // the older five-plus-note format; with seven fields it must be `since`.
    std::size_t note_at = 5;
    if (f.size() >= 6) {
      const std::string_view since = trim(f[5]);
      const std::optional<Version> v = since == "-"      ? std::optional<Version>(Version{})
                                       : since == "none" ? std::optional<Version>(Version::none())
                                                         : Version::parse(since);
      if (v) {
        r.since = *v;
        note_at = 6;
      } else if (f.size() == 7) {
        throw RuleError(where + ": field 6 (since) must be '-', 'none' or a version such as 5.3, not '" +
                        std::string(since) + "'");
      }
    }
    if (f.size() > note_at) r.note = std::string(trim(f[note_at]));
    r.origin = where;
    if (r.kind == RuleKind::Namespace) {
      // A namespace may be given qualified by its enclosing one: `thrust::cuda`.
      std::string_view rest = r.from;
      for (std::size_t at; (at = rest.find("::")) != std::string_view::npos; rest.remove_prefix(at + 2))
        if (!is_identifier(rest.substr(0, at))) throw RuleError(where + ": '" + r.from + "' is not a namespace name");
      if (!is_identifier(rest)) throw RuleError(where + ": '" + r.from + "' is not a namespace name");
    } else if (r.kind != RuleKind::Header && !is_identifier(r.from)) {
      throw RuleError(where + ": '" + r.from + "' is not an identifier");
    }
    if (r.from.empty() || r.family.empty()) throw RuleError(where + ": empty field");
    if (r.kind == RuleKind::Call && !r.has_replacement()) throw RuleError(where + ": a call rule needs a template");
    add(std::move(r), merge);
    if (nl == text.size()) break;
  }
}

const Rule* RuleSet::find_identifier(std::string_view name) const {
  if (!name.empty()) {
    const std::size_t h = identifier_head(name);
    if (!(identifier_heads_[h / 64] & (1ull << (h % 64)))) return nullptr;
  }
  auto it = identifiers_.find(name);
  return it == identifiers_.end() ? nullptr : it->second;
}
const Rule* RuleSet::find_header(std::string_view path) const {
  auto it = headers_.find(path);
  return it == headers_.end() ? nullptr : it->second;
}
const Rule* RuleSet::find_namespace(std::string_view name) const {
  auto it = namespaces_.find(name);
  return it == namespaces_.end() ? nullptr : it->second;
}

std::map<std::string, std::map<std::string, std::size_t>> RuleSet::stats() const {
  std::map<std::string, std::map<std::string, std::size_t>> out;
  for (const auto& r : rules_) ++out[r->family][std::string(to_string(r->status))];
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
