// The algorithm table and the tuning rules that select from it.
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "../algorithms.hpp"
#include "ferry/comm/tuning.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm {

using detail::Call;
using detail::Context;

std::string_view collective_name(Collective c) {
  switch (c) {
    case Collective::allreduce: return "allreduce";
    case Collective::reduce_scatter: return "reduce_scatter";
    case Collective::allgather: return "allgather";
    case Collective::broadcast: return "broadcast";
    case Collective::barrier: return "barrier";
    case Collective::sendrecv: return "sendrecv";
  }
  return "?";
}

namespace {

// The error model of a row is two expressions in P; these are at hand in them.
[[maybe_unused]] constexpr int floor_log2(int p) {
  int l = 0;
  while ((2 << l) <= p) ++l;
  return l;
}
[[maybe_unused]] constexpr int pow2_below(int p) { return 1 << floor_log2(p); }

constexpr Algorithm table[] = {
#define FERRY_COMM_ALGORITHM(coll, nm, codec, terms, depth, formula, summary) \
  {Collective::coll,                                                          \
   #nm,                                                                       \
   summary,                                                                   \
   codec,                                                                     \
   []([[maybe_unused]] int P) -> double { return (terms); },                  \
   []([[maybe_unused]] int P) -> int { return (depth); },                     \
   formula,                                                                   \
   detail::coll##_##nm},
#include "../algorithms.def"
#undef FERRY_COMM_ALGORITHM
};

}  // namespace

const std::string_view default_tuning =
    "allreduce:0-inf:rsag#allreduce:0-16K:recursive_doubling"
    "#reduce_scatter:0-inf:ring#allgather:0-inf:ring#allgather:0-16K:recursive_doubling"
    "#broadcast:0-inf:binomial#broadcast:512K-inf:scatter_allgather#barrier:0-inf:dissemination";

std::span<const Algorithm> algorithms() { return table; }

const Algorithm* find_algorithm(Collective c, std::string_view name) {
  for (const auto& a : table)
    if (a.collective == c && a.name == name) return &a;
  return nullptr;
}

std::string algorithm_table() {
  std::string out = fmt::format("{:<15} {:<19} {:<6} {:<52} {}\n", "collective", "algorithm", "codec",
                                "compression error (e per compression)", "summary");
  for (const auto& a : table)
    out += fmt::format("{:<15} {:<19} {:<6} {:<52} {}\n", collective_name(a.collective), a.name,
                       a.supports_codec ? "yes" : "no", a.error_formula, a.summary);
  return out;
}

namespace {

std::size_t parse_size(std::string_view s, std::string_view rule) {
  if (s == "inf") return std::numeric_limits<std::size_t>::max();
  std::size_t mult = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K':
      case 'k': mult = 1024; break;
      case 'M':
      case 'm': mult = 1024 * 1024; break;
      case 'G':
      case 'g': mult = 1024ull * 1024 * 1024; break;
      default: break;
    }
    if (mult != 1) s.remove_suffix(1);
  }
  std::size_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size())
    throw UsageError(fmt::format("ferry-comm tuning rule '{}': bad size '{}'", rule, s));
  return v * mult;
}

Collective parse_collective(std::string_view s, std::string_view rule) {
  for (auto c : {Collective::allreduce, Collective::reduce_scatter, Collective::allgather, Collective::broadcast,
                 Collective::barrier, Collective::sendrecv})
    if (collective_name(c) == s) return c;
  throw UsageError(fmt::format("ferry-comm tuning rule '{}': unknown collective '{}'", rule, s));
}

}  // namespace

Tuning::Tuning(std::string_view rules) { append(rules); }

void Tuning::append(std::string_view rules) {
  while (!rules.empty()) {
    auto hash = rules.find('#');
    std::string_view rule = rules.substr(0, hash);
    rules = hash == std::string_view::npos ? std::string_view{} : rules.substr(hash + 1);
    if (rule.empty()) continue;
    // collective:lo-hi:algorithm
    auto c1 = rule.find(':');
    auto c2 = c1 == std::string_view::npos ? c1 : rule.find(':', c1 + 1);
    if (c2 == std::string_view::npos)
      throw UsageError(fmt::format("ferry-comm tuning rule '{}': expected collective:lo-hi:algorithm", rule));
    auto coll = parse_collective(rule.substr(0, c1), rule);
    auto range = rule.substr(c1 + 1, c2 - c1 - 1);
    auto dash = range.find('-');
    if (dash == std::string_view::npos)
      throw UsageError(fmt::format("ferry-comm tuning rule '{}': range must be lo-hi", rule));
    std::size_t lo = parse_size(range.substr(0, dash), rule), hi = parse_size(range.substr(dash + 1), rule);
    auto name = rule.substr(c2 + 1);
    const Algorithm* a = find_algorithm(coll, name);
    if (a == nullptr) {
      std::string known;
      for (const auto& row : table)
        if (row.collective == coll) known += fmt::format(" {}", row.name);
      throw UsageError(fmt::format("ferry-comm tuning rule '{}': no {} algorithm '{}' (known:{})", rule,
                                   collective_name(coll), name, known));
    }
    if (lo >= hi) throw UsageError(fmt::format("ferry-comm tuning rule '{}': empty range", rule));
    rules_.push_back({coll, lo, hi, a});
  }
}

const Algorithm& Tuning::select(Collective c, std::size_t bytes) const {
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it)
    if (it->collective == c && bytes >= it->lo && bytes < it->hi) return *it->algorithm;
  for (const auto& a : table)
    if (a.collective == c) return a;
  throw UsageError(fmt::format("ferry-comm: no algorithm for {}", collective_name(c)));
}

}  // namespace ferry::comm
