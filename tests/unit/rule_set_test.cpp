#include "rules/rule_set.h"

#include <gtest/gtest.h>

#include "rules/builtin.h"

namespace ferry::rules {
namespace {

TEST(RuleSet, ParsesRowsAndLooksUpByKind) {
  RuleSet s;
  s.load_table(
      "# comment\n\nfunc\tcudaMalloc\thipMalloc\truntime\tsupported\n"
      "header\tcuda_runtime.h\thip/hip_runtime.h\theaders\tsupported\n"
      "namespace\tcub\thipcub\tcub\tsupported\n"
      "func\tcudaFoo\t-\truntime\tunsupported\tdo it by hand\n",
      "t.tsv", RuleSet::Merge::RejectDuplicates);
  ASSERT_NE(s.find_identifier("cudaMalloc"), nullptr);
  EXPECT_EQ(s.find_identifier("cudaMalloc")->to, "hipMalloc");
  EXPECT_EQ(s.find_identifier("cuda_runtime.h"), nullptr);
  EXPECT_EQ(s.find_header("cuda_runtime.h")->to, "hip/hip_runtime.h");
  EXPECT_EQ(s.find_namespace("cub")->to, "hipcub");
  EXPECT_EQ(s.find_identifier("cub"), nullptr);
  const Rule* foo = s.find_identifier("cudaFoo");
  ASSERT_NE(foo, nullptr);
  EXPECT_FALSE(foo->has_replacement());
  EXPECT_EQ(foo->note, "do it by hand");
  EXPECT_EQ(foo->origin, "t.tsv:6");
}

TEST(RuleSet, SinceColumnIsOptionalAndTellsANoteFromAVersion) {
  RuleSet s;
  s.load_table(
      "func\tcudaA\thipA\truntime\tsupported\t5.3\n"
      "func\tcudaB\thipB\truntime\tchanged\t6.0\tcalled differently\n"
      "func\tcudaC\thipC\truntime\tchanged\tan older row: the note comes sixth\n"
      "func\tcudaD\thipD\truntime\tsupported\t-\n"
      "func\tcudaE\thipE\truntime\tsupported\n",
      "v.tsv", RuleSet::Merge::RejectDuplicates);
  EXPECT_EQ(s.find_identifier("cudaA")->since, (Version{5, 3}));
  EXPECT_TRUE(s.find_identifier("cudaA")->note.empty());
  EXPECT_EQ(s.find_identifier("cudaB")->since, (Version{6, 0}));
  EXPECT_EQ(s.find_identifier("cudaB")->note, "called differently");
  EXPECT_FALSE(s.find_identifier("cudaC")->since.known());
  EXPECT_EQ(s.find_identifier("cudaC")->note, "an older row: the note comes sixth");
  EXPECT_FALSE(s.find_identifier("cudaD")->since.known());
  EXPECT_FALSE(s.find_identifier("cudaE")->since.known());
  // With seven fields the sixth must be a version.
  EXPECT_THROW(s.load_table("func\tcudaF\thipF\truntime\tchanged\tsoon\tnote\n", "bad.tsv", RuleSet::Merge::Override),
               RuleError);
}

TEST(Version, ParsesMajorMinorAndIgnoresThePatch) {
  EXPECT_EQ(Version::parse("5.2"), (Version{5, 2}));
  EXPECT_EQ(Version::parse("5.2.3"), (Version{5, 2}));
  EXPECT_EQ(Version::parse("5.2.21153-0"), (Version{5, 2}));
  EXPECT_EQ(Version::parse("6.10"), (Version{6, 10}));
  EXPECT_FALSE(Version::parse("5"));
  EXPECT_FALSE(Version::parse("5.x"));
  EXPECT_FALSE(Version::parse("5.2rc"));
  EXPECT_FALSE(Version::parse(""));
  EXPECT_LT((Version{5, 10}), (Version{6, 0}));
  EXPECT_LT((Version{5, 2}), (Version{5, 10}));
}

TEST(RuleSet, NamespacesMayBeQualifiedByTheirEnclosingNamespace) {
  RuleSet s;
  s.load_table("namespace\tthrust::cuda\tthrust::hip\tthrust\tsupported\n", "ns.tsv", RuleSet::Merge::RejectDuplicates);
  ASSERT_NE(s.find_namespace("thrust::cuda"), nullptr);
  EXPECT_EQ(s.find_namespace("cuda"), nullptr);
  EXPECT_THROW(s.load_table("namespace\tthrust::\tx\tthrust\tsupported\n", "bad.tsv", RuleSet::Merge::Override),
               RuleError);
  EXPECT_THROW(s.load_table("func\ta::b\tx\truntime\tsupported\n", "bad.tsv", RuleSet::Merge::Override), RuleError);
}

TEST(RuleSet, MalformedRowsNameTheFileAndLine) {
  RuleSet s;
  try {
    s.load_table("func\ta\tb\truntime\tsupported\nfunc\tonly-three\tx\n", "bad.tsv", RuleSet::Merge::RejectDuplicates);
    FAIL() << "expected RuleError";
  } catch (const RuleError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.tsv:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.load_table("fn\ta\tb\tx\tsupported\n", "k.tsv", RuleSet::Merge::Override), RuleError);
  EXPECT_THROW(s.load_table("func\ta\tb\tx\tmaybe\n", "s.tsv", RuleSet::Merge::Override), RuleError);
  EXPECT_THROW(s.load_table("func\tnot an id\tb\tx\tsupported\n", "i.tsv", RuleSet::Merge::Override), RuleError);
}

TEST(RuleSet, DuplicatesAreRejectedInBuiltInsAndOverrideInUserFiles) {
  RuleSet s;
  s.load_table("func\tcudaMalloc\thipMalloc\truntime\tsupported\n", "a.tsv", RuleSet::Merge::RejectDuplicates);
  EXPECT_THROW(s.load_table("func\tcudaMalloc\tx\truntime\tsupported\n", "b.tsv", RuleSet::Merge::RejectDuplicates),
               RuleError);
  s.load_table("func\tcudaMalloc\tmyMalloc\tuser\tchanged\tmine\n", "user.tsv", RuleSet::Merge::Override);
  EXPECT_EQ(s.find_identifier("cudaMalloc")->to, "myMalloc");
  EXPECT_EQ(s.size(), 1u);
}

TEST(RuleSet, CallTemplatesExpandArgumentsAndRests) {
  std::string out;
  ASSERT_TRUE(expand_call_template("f(HIP_SYMBOL($0), $1...)", {"sym", "src", "n"}, out));
  EXPECT_EQ(out, "f(HIP_SYMBOL(sym), src, n)");
  ASSERT_TRUE(expand_call_template("f($0, $1...)", {"a"}, out));
  EXPECT_EQ(out, "f(a)");
  ASSERT_TRUE(expand_call_template("g($1, $0)", {"a", "b"}, out));
  EXPECT_EQ(out, "g(b, a)");
  EXPECT_FALSE(expand_call_template("g($2)", {"a"}, out));
}

TEST(BuiltinRules, LoadWithoutErrorsOrDuplicatesAndCoverTheFamilies) {
  RuleSet s;
  const std::string_view skip[] = {"cuda2hip/alt-"};
  load_builtin(s, "cuda2hip/", skip);
  const auto stats = s.stats();
  for (const char* family : {"runtime", "driver", "device", "headers"}) {
    EXPECT_TRUE(stats.count(family)) << "no rules for family " << family;
  }
  ASSERT_NE(s.find_identifier("cudaMalloc"), nullptr);
  EXPECT_EQ(s.find_identifier("cudaMalloc")->to, "hipMalloc");
  ASSERT_NE(s.find_header("cuda_runtime.h"), nullptr);
}

}  // namespace
}  // namespace ferry::rules
