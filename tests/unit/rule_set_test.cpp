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
  EXPECT_EQ(foo->origin(), "t.tsv:6");
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

// The rules view their text: load_table keeps a copy of what it reads, load_static_table views
// the text where it is (the tables compiled into the binary), add() copies a rule's text.
TEST(RuleSet, KeepsACopyOfTextItDoesNotOwn) {
  RuleSet s;
  {
    std::string text = "func\tcudaMalloc\thipMalloc\truntime\tsupported\t-\tnote one\n";
    s.load_table(text, std::string("user.tsv"), RuleSet::Merge::Override);
    text.assign(text.size(), 'x');  // the caller's buffer changes and goes: the rule does not
  }
  const Rule* r = s.find_identifier("cudaMalloc");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->to, "hipMalloc");
  EXPECT_EQ(r->note, "note one");
  EXPECT_EQ(r->origin(), "user.tsv:1");

  RuleSet copy;
  {
    RuleSet from;
    std::string name = "cudaFree", to = "hipFree", origin = "made by a test";
    Rule made;
    made.kind = RuleKind::Func;
    made.status = Status::Changed;
    made.from = name;
    made.to = to;
    made.family = "runtime";
    made.table = origin;
    from.add(made, RuleSet::Merge::RejectDuplicates);
    name.assign(name.size(), 'y');
    to.assign(to.size(), 'z');
    for (const Rule* x : from.all()) copy.add(*x, RuleSet::Merge::RejectDuplicates);
  }  // `from` is gone: `copy` has its own text
  const Rule* f = copy.find_identifier("cudaFree");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->to, "hipFree");
  EXPECT_EQ(f->family, "runtime");
  EXPECT_EQ(f->origin(), "made by a test");  // line 0: the table names the origin alone
}

TEST(RuleSet, StaticTablesAreViewedWhereTheyAre) {
  static constexpr std::string_view kText = "type\tcudaStream_t\thipStream_t\truntime\tsupported\n";
  RuleSet s;
  s.load_static_table(kText, "rules/static.tsv", RuleSet::Merge::RejectDuplicates);
  const Rule* r = s.find_identifier("cudaStream_t");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->from.data(), kText.data() + kText.find("cudaStream_t"));
  EXPECT_EQ(r->origin(), "rules/static.tsv:1");
}

// The index is a flat table that grows: every name stays found, an absent one is not, and an
// override replaces the rule in place (same position in all()).
TEST(RuleSet, ManyRulesAreAllFoundAndOverridesKeepTheirPlace) {
  RuleSet s;
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "func\tcudaF" + std::to_string(i) + "\thipF" + std::to_string(i) + "\tr\tsupported\n";
  text += "header\tcuda_f.h\thip/f.h\theaders\tsupported\n";
  s.load_table(text, "many.tsv", RuleSet::Merge::RejectDuplicates);
  ASSERT_EQ(s.size(), 3001u);
  for (int i = 0; i < 3000; ++i) {
    const Rule* r = s.find_identifier("cudaF" + std::to_string(i));
    ASSERT_NE(r, nullptr) << i;
    EXPECT_EQ(r->to, "hipF" + std::to_string(i));
  }
  EXPECT_EQ(s.find_identifier("cudaF3000"), nullptr);
  EXPECT_EQ(s.find_identifier("cuda_f.h"), nullptr);
  EXPECT_EQ(s.find_identifier(""), nullptr);
  EXPECT_EQ(s.find_header("cuda_f.h")->to, "hip/f.h");
  s.load_table("func\tcudaF7\tmine\tuser\tchanged\n", "user.tsv", RuleSet::Merge::Override);
  EXPECT_EQ(s.size(), 3001u);
  EXPECT_EQ(s.all()[7]->to, "mine");
  EXPECT_EQ(s.all()[7]->origin(), "user.tsv:1");
  EXPECT_EQ(s.find_identifier("cudaF7"), s.all()[7]);
  try {
    s.load_table("func\tcudaF9\tx\tr\tsupported\n", "dup.tsv", RuleSet::Merge::RejectDuplicates);
    FAIL() << "expected RuleError";
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), "dup.tsv:1: duplicate rule for 'cudaF9' (first defined at many.tsv:10)");
  }
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
