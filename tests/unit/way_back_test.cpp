// The ways back's generated tables (targets/way_back.h) against the rule sets they are made from:
// every name either gives the same replacement as a lookup in the rules or, where the rules have
// none, nothing.
#include <gtest/gtest.h>

#include <string>

#include "rules/builtin.h"
#include "rules/rule_set.h"
#include "targets/cuda/reverse_rules.h"
#include "targets/way_back.h"

namespace ferry::targets {
namespace {

using Lookup = std::string_view (*)(std::string_view);

// Every row of `set` (and a few names no table has): the table's answer is the rule's replacement.
std::size_t expect_same(const rules::RuleSet& set, Lookup identifier, Lookup header) {
  std::size_t checked = 0;
  for (const auto& r : set.all()) {
    if (r->kind == rules::RuleKind::Namespace) continue;
    const bool is_header = r->kind == rules::RuleKind::Header;
    const rules::Rule* found = is_header ? set.find_header(r->from) : set.find_identifier(r->from);
    const std::string_view want = found && found->has_replacement() ? std::string_view(found->to) : "";
    EXPECT_EQ((is_header ? header : identifier)(r->from), want) << r->origin() << ": " << r->from;
    ++checked;
  }
  for (const std::string_view none : {"", "a", "zzzz_not_a_name", "threadIdx", "~"}) {
    const rules::Rule* i = set.find_identifier(none);
    EXPECT_EQ(identifier(none), i && i->has_replacement() ? std::string_view(i->to) : "") << none;
    const rules::Rule* h = set.find_header(none);
    EXPECT_EQ(header(none), h && h->has_replacement() ? std::string_view(h->to) : "") << none;
  }
  return checked;
}

TEST(WayBack, ToCudaIsTheReverseTable) {
  rules::RuleSet reverse;
  cuda::build_reverse_rules(reverse);
  EXPECT_GT(expect_same(reverse, way_back::to_cuda_identifier, way_back::to_cuda_header), 1000u);
  EXPECT_EQ(way_back::to_cuda_header("hip/hip_runtime.h"), "cuda_runtime.h");
  EXPECT_EQ(way_back::to_cuda_identifier("hipMalloc"), "cudaMalloc");
}

TEST(WayBack, ToHipIsTheForwardTable) {
  rules::RuleSet forward;
  const std::string_view skip[] = {"cuda2hip/alt-"};
  rules::load_builtin(forward, "cuda2hip/", skip);
  EXPECT_GT(expect_same(forward, way_back::to_hip_identifier, way_back::to_hip_header), 1000u);
  EXPECT_EQ(way_back::to_hip_identifier("cudaMalloc"), "hipMalloc");
}

}  // namespace
}  // namespace ferry::targets
