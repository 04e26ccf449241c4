// Algorithm metadata and selection.
// Every algorithm is one row of one table (algorithms()): its collective, name, summary, whether
// it accepts a codec, and how compression error accumulates along it. Selection is by message
// size in bytes through rules written as one tuning string, the same syntax for the built-in
// defaults, the FERRY_COMM_TUNE environment variable, CommOptions::tuning and tests:
//   allreduce:0-16K:recursive_doubling#allreduce:16K-inf:ring
// Rules are separated by '#'; later rules override earlier ones where their ranges overlap.
// Sizes take K/M/G suffixes (powers of 1024); the upper bound is exclusive.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::comm {

enum class Collective { allreduce, reduce_scatter, allgather, broadcast, barrier, sendrecv };
std::string_view collective_name(Collective c);

namespace detail {
struct Context;
struct Call;
}  // namespace detail

struct Algorithm {
  Collective collective;
  std::string_view name;
  std::string_view summary;
  bool supports_codec;
  // Worst-case number of lossy compressions whose absolute error can add up in one output
  // element (P ranks): the end-to-end bound of an absolute-error codec is this times its
  // per-compression bound. Zero for collectives that never compress.
  double (*abs_error_terms)(int P);
  // Longest chain of compressions any single input passes through: a codec with relative
  // error u per compression gives (1+u)^depth - 1 times sum_i |x_i|.
  int (*relative_depth)(int P);
  std::string_view error_formula;  // the two numbers above, as text for the table
  void (*run)(detail::Context&, const detail::Call&);
};

std::span<const Algorithm> algorithms();
const Algorithm* find_algorithm(Collective c, std::string_view name);  // nullptr if unknown
std::string algorithm_table();                                         // printable table of algorithms()

// The built-in rules; FERRY_COMM_TUNE and CommOptions::tuning are appended after them.
extern const std::string_view default_tuning;

class Tuning {
 public:
  struct Rule {
    Collective collective;
    std::size_t lo, hi;  // bytes, [lo, hi)
    const Algorithm* algorithm;
  };
  // Parses a rule string; throws UsageError naming the bad rule.
  explicit Tuning(std::string_view rules);
  void append(std::string_view rules);
  const Algorithm& select(Collective c, std::size_t bytes) const;
  const std::vector<Rule>& rules() const { return rules_; }

 private:
  std::vector<Rule> rules_;
};

}  // namespace ferry::comm
