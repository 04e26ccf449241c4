// The mindspore target: its tables (every name and keyword it can emit is in rules/mindspore/api.tsv),
// the args operations, and conversions of small scripts (skipped when ferry has no Python parser).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "migrate/file_migration.h"
#include "pyparse/tree.h"
#include "targets/mindspore/mapping.h"
#include "targets/target.h"

namespace ferry::targets::mindspore {
namespace {

TEST(MindSporeTables, ReadWithoutProblems) {
  const Tables& t = Tables::builtin();
  for (const std::string& p : t.problems()) ADD_FAILURE() << p;
  for (const std::string& d : t.duplicates()) ADD_FAILURE() << "duplicate row: " << d;
  EXPECT_GT(t.rows().size(), 100u);
  EXPECT_FALSE(t.api_entries().empty());
}

// The acceptance test of the issue: nothing Ferry writes may be missing from MindSpore's API table.
TEST(MindSporeTables, EveryEmittedNameAndKeywordIsInTheApiTable) {
  const Tables& t = Tables::builtin();
  std::set<std::string> missing;
  for (const auto& [torch, m] : t.rows()) {
    if (m.status == Status::Unsupported || m.ms.empty()) continue;
    const ApiEntry* e = t.api(m.ms);
    if (!e) {
      missing.insert(m.ms + " (" + m.where + ")");
      continue;
    }
    // methods are written as .name on the receiver; the class's own name must exist too
    for (const ArgOp& op : m.ops) {
      std::string kw;
      if (op.kind == ArgOp::Kind::Rename || op.kind == ArgOp::Kind::Positional) kw = op.to;
      if (op.kind == ArgOp::Kind::Add) kw = op.from;
      if (!kw.empty() && !e->takes(kw)) missing.insert(m.ms + "(" + kw + "=) (" + m.where + ")");
    }
  }
  for (const EmittedName& n : pass_emitted_names()) {
    const ApiEntry* e = t.api(n.name);
    if (!e) {
      missing.insert(std::string(n.name) + " (a pass)");
      continue;
    }
    for (std::string_view kw : n.keywords)
      if (!e->takes(kw)) missing.insert(std::string(n.name) + "(" + std::string(kw) + "=) (a pass)");
  }
  for (const std::string& m : missing) ADD_FAILURE() << "not in rules/mindspore/api.tsv: " << m;
}

TEST(MindSporeTables, ArgOps) {
  std::string err;
  const auto ops = parse_arg_ops("in_features->in_channels; bias=drop;+pad_mode='pad';@2->has_bias", &err);
  EXPECT_TRUE(err.empty()) << err;
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].kind, ArgOp::Kind::Rename);
  EXPECT_EQ(ops[0].to, "in_channels");
  EXPECT_EQ(ops[1].kind, ArgOp::Kind::Drop);
  EXPECT_EQ(ops[2].kind, ArgOp::Kind::Add);
  EXPECT_EQ(ops[2].to, "'pad'");
  EXPECT_EQ(ops[3].kind, ArgOp::Kind::Positional);
  EXPECT_EQ(ops[3].position, 2);
  EXPECT_TRUE(parse_arg_ops("-", &err).empty());
  (void)parse_arg_ops("what", &err);
  EXPECT_FALSE(err.empty());
}

TEST(MindSporeTables, CoreRowsWinOverOtherFiles) {
  const Tables t =
      Tables::from_text({{"torch2mindspore/api_map.tsv", "torch.nn.Linear\tmindspore.mint.nn.Linear\tsame\t-\t-\n"},
                         {"torch2mindspore/core.tsv", "torch.nn.Linear\tmindspore.nn.Dense\tdiff\t-\t-\n"}},
                        "mindspore.nn.Dense\tclass\tin_channels\n");
  ASSERT_NE(t.find("torch.nn.Linear"), nullptr);
  EXPECT_EQ(t.find("torch.nn.Linear")->ms, "mindspore.nn.Dense");
  EXPECT_TRUE(t.duplicates().empty());
  EXPECT_TRUE(t.api("mindspore.nn.Dense")->takes("in_channels"));
  EXPECT_FALSE(t.api("mindspore.nn.Dense")->takes("bias"));
}

migrate::FileResult run(const std::string& src) {
  static const Options options;
  static const auto target = make_target("mindspore", options);
  static const ProjectContext ctx;
  return migrate::migrate_buffer("t.py", src, *target, options, ctx);
}

TEST(MindSporeConvert, AliasesResolveHoweverSpelled) {
  if (!pyparse::available()) GTEST_SKIP() << pyparse::describe();
  const auto r = run("import torch.nn as tnn\nfrom torch.nn import Linear as L\na = tnn.Linear(2, 3)\nb = L(3, 4)\n");
  EXPECT_EQ(r.output, "from mindspore import nn\na = nn.Dense(2, 3)\nb = nn.Dense(3, 4)\n");
  EXPECT_EQ(run(r.output).output, r.output);
}

TEST(MindSporeConvert, UnknownNamesKeepTheirImport) {
  if (!pyparse::available()) GTEST_SKIP() << pyparse::describe();
  const auto r = run("import torch\nx = torch.fft.rfft(torch.ones(3))\n");
  EXPECT_NE(r.output.find("import torch\n"), std::string::npos);
  EXPECT_NE(r.output.find("ops.ones(3)"), std::string::npos);
  bool diagnosed = false;
  for (const auto& d : r.diagnostics) diagnosed |= to_string(d.code) == "FRY1701";
  EXPECT_TRUE(diagnosed);
}

// An API the table lists with no parameters takes no keyword: the call stays, diagnosed (an empty
// parameter list once read as a *args/**kwargs wrapper let mindspore.Generator(device=...) through).
TEST(MindSporeConvert, AKeywordToAnApiWithoutParametersIsLeftAsWritten) {
  if (!pyparse::available()) GTEST_SKIP() << pyparse::describe();
  const auto r = run("import torch\ns = torch.initial_seed(generator=g)\n");
  EXPECT_NE(r.output.find("torch.initial_seed(generator=g)"), std::string::npos) << r.output;
  bool diagnosed = false;
  for (const auto& d : r.diagnostics) diagnosed |= to_string(d.code) == "FRY1705";
  EXPECT_TRUE(diagnosed);
}

TEST(MindSporeConvert, NotATorchFileIsLeftAlone) {
  if (!pyparse::available()) GTEST_SKIP() << pyparse::describe();
  const std::string src = "import numpy as np\nx = np.ones(3).view()\n";
  EXPECT_EQ(run(src).output, src);
}

TEST(MindSporeConvert, SyntaxErrorLeavesTheFile) {
  if (!pyparse::available()) GTEST_SKIP() << pyparse::describe();
  const std::string src = "import torch\ndef f(:\n  pass\n";
  const auto r = run(src);
  EXPECT_EQ(r.output, src);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(to_string(r.diagnostics[0].code), "FRY1704");
}

}  // namespace
}  // namespace ferry::targets::mindspore
