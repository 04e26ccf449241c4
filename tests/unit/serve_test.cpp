// The workbench's pieces without a browser: path checks and symlink-safe file access, line
// mapping of diagnostics onto edited files, conflict markers, tokens, the docs page, merged
// verify results, the job queue, hand-edit detection across rounds, and a round over a manifest of
// Ferry 0.x (its options under the keys they had before targets owned them).
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "analysis/profile.h"
#include "migrate/merge3.h"
#include "migrate/migrate_tree.h"
#include "migrate/rounds.h"
#include "report/bundle.h"
#include "report/sarif.h"
#include "serve/actions.h"
#include "serve/jobs.h"
#include "serve/safe_fs.h"
#include "serve/server.h"
#include "serve/workspace.h"
#include "targets/target.h"

namespace fs = std::filesystem;
using namespace ferry;
using namespace ferry::serve;

namespace {

class TempTree : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ferry-serve-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    fs::create_directories(dir_ / "root" / "src");
    write("root/src/a.cu", "int a;\n");
    write("outside.txt", "secret\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel, std::ios::binary) << text; }
  std::string read(const std::string& rel) {
    std::ifstream in(dir_ / rel, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  int status_of(const std::function<void()>& fn) {
    try {
      fn();
    } catch (const AccessError& e) {
      return e.status();
    }
    return 200;
  }
  fs::path dir_;
};

}  // namespace

TEST(ServePaths, SplitsAndNormalises) {
  EXPECT_EQ(normalise_relative("src//./a.cu"), "src/a.cu");
  EXPECT_EQ(normalise_relative("./README.md"), "README.md");
  EXPECT_EQ(split_relative("a/b/c").size(), 3u);
}

TEST(ServePaths, RefusesEscapes) {
  for (const char* p : {"", "/etc/passwd", "../x", "src/../../x", "a/..", "..", ".", "./", ".ferry/manifest.json",
                        "./.ferry/objects/x"}) {
    try {
      (void)split_relative(p);
      ADD_FAILURE() << "accepted '" << p << "'";
    } catch (const AccessError& e) {
      EXPECT_EQ(e.status(), kForbidden) << p;
    }
  }
  EXPECT_THROW((void)split_relative(std::string_view("a\0b", 3)), AccessError);
  EXPECT_NO_THROW((void)split_relative(".ferry/manifest.json", /*allow_state=*/true));
}

TEST_F(TempTree, ReadsInsideAndRefusesLinks) {
  SafeRoot root(dir_ / "root");
  EXPECT_EQ(root.read("src/a.cu", 1 << 20), "int a;\n");
  EXPECT_EQ(status_of([&] { (void)root.read("src/missing.cu", 1 << 20); }), kNotFound);
  EXPECT_EQ(status_of([&] { (void)root.read("src", 1 << 20); }), kForbidden);
  EXPECT_EQ(status_of([&] { (void)root.read("src/a.cu", 3); }), kTooLarge);
  fs::create_symlink(dir_ / "outside.txt", dir_ / "root" / "link.txt");
  fs::create_directory_symlink(dir_, dir_ / "root" / "linkdir");
  fs::create_hard_link(dir_ / "outside.txt", dir_ / "root" / "hard.txt");
  EXPECT_EQ(status_of([&] { (void)root.read("link.txt", 1 << 20); }), kForbidden);
  EXPECT_EQ(status_of([&] { (void)root.read("linkdir/outside.txt", 1 << 20); }), kForbidden);
  EXPECT_EQ(status_of([&] { (void)root.read("hard.txt", 1 << 20); }), kForbidden);
  EXPECT_FALSE(root.readable("link.txt"));
  EXPECT_TRUE(root.readable("src/a.cu"));
  ASSERT_EQ(::mkfifo((dir_ / "root" / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(status_of([&] { (void)root.read("fifo", 1 << 20); }), kForbidden);  // and does not block
}

TEST_F(TempTree, ReplacesAtomicallyAndRefusesStaleOrLinkedTargets) {
  SafeRoot root(dir_ / "root");
  ::chmod((dir_ / "root/src/a.cu").c_str(), 0640);
  root.replace(
      "src/a.cu", "int b;\n", [](const std::string& cur) { return cur == "int a;\n"; }, 1 << 20);
  EXPECT_EQ(read("root/src/a.cu"), "int b;\n");
  EXPECT_EQ(fs::status(dir_ / "root/src/a.cu").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(status_of([&] {
              root.replace(
                  "src/a.cu", "x", [](const std::string&) { return false; }, 1 << 20);
            }),
            kConflict);
  EXPECT_EQ(read("root/src/a.cu"), "int b;\n");
  // A change between the first check and the rename is caught by the second check.
  int calls = 0;
  EXPECT_EQ(status_of([&] {
              root.replace(
                  "src/a.cu", "mine",
                  [&](const std::string&) {
                    if (++calls == 1) {
                      std::ofstream(dir_ / "root/src/a.cu") << "theirs";
                      return true;
                    }
                    return false;
                  },
                  1 << 20);
            }),
            kConflict);
  EXPECT_EQ(read("root/src/a.cu"), "theirs");
  fs::create_symlink(dir_ / "outside.txt", dir_ / "root" / "link.txt");
  fs::create_directory_symlink(dir_, dir_ / "root" / "linkdir");
  auto any = [](const std::string&) { return true; };
  EXPECT_EQ(status_of([&] { root.replace("link.txt", "pwned", any, 1 << 20); }), kForbidden);
  EXPECT_EQ(status_of([&] { root.replace("linkdir/outside.txt", "pwned", any, 1 << 20); }), kForbidden);
  EXPECT_EQ(status_of([&] { root.replace("new.txt", "x", any, 1 << 20); }), kNotFound);  // no creation
  EXPECT_EQ(read("outside.txt"), "secret\n");
  for (const auto& e : fs::directory_iterator(dir_ / "root" / "src"))
    EXPECT_EQ(e.path().filename().string().find(".ferry-tmp-"), std::string::npos);
}

TEST(ServeLineMapper, MapsOriginalThroughGeneratedToEditedText) {
  // Original lines 1..4; migration inserted a line after line 1 (generated has 5 lines).
  const std::string generated = "a\n#include <hip/hip_runtime.h>\nb\nc\nd\n";
  const std::vector<std::uint32_t> out_to_orig = {1, 1, 2, 3, 4};
  // Unedited: original 3 ("c") is generated line 4.
  LineMapper same(out_to_orig, generated, generated);
  EXPECT_EQ(same.from_original(3).line, 4u);
  EXPECT_TRUE(same.from_original(3).exact);
  EXPECT_EQ(same.from_original(0).line, 0u);
  // The user added two lines at the top and changed "d".
  const std::string current = "// mine\n// mine\na\n#include <hip/hip_runtime.h>\nb\nc\nD!\n";
  LineMapper edited(out_to_orig, generated, current);
  EXPECT_EQ(edited.from_original(3).line, 6u);
  EXPECT_TRUE(edited.from_original(3).exact);
  EXPECT_EQ(edited.from_original(4).line, 7u);  // inside the changed region: its start
  EXPECT_FALSE(edited.from_original(4).exact);
  // No line map (a copied file): lines as they are.
  LineMapper none({}, "x\ny\n", "x\ny\n");
  EXPECT_EQ(none.from_original(2).line, 2u);
}

TEST(ServeConflicts, FindsMarkerLines) {
  const std::string t = std::string("a\n") + std::string(migrate::kConflictBegin) + "\nnew\n=======\nold\n" +
                        std::string(migrate::kConflictEnd) + "\nz\n=======\n";
  EXPECT_EQ(conflict_marker_lines(t), (std::vector<std::uint32_t>{2, 4, 6}));  // not the stray 8
  EXPECT_TRUE(conflict_marker_lines("a\n=======\n").empty());                  // a separator alone is no conflict
}

TEST(ServeToken, RandomUrlSafeAndLongEnough) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string t = random_token();
    EXPECT_GE(t.size(), 16u);
    EXPECT_EQ(t.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos);
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 50u);
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("192.168.1.4"));
}

TEST(ServeDocs, MarkdownPageCarriesTheAnchorsOfSarif) {
  const std::string md =
      "# Diagnostics\n\n### FRY2201 — lane id computed for 32-lane warps (warning)\n"
      "Text with `code` and **bold** <b>.\n\n```cpp\nint x = a & 31;\n```\n| a | b |\n|---|---|\n| 1 | 2 |\n";
  const std::string html = markdown_page(md, "t");
  EXPECT_NE(
      html.find("id=\"" + report::heading_anchor("FRY2201 — lane id computed for 32-lane warps (warning)") + "\""),
      std::string::npos);
  EXPECT_NE(html.find("<code>code</code>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;"), std::string::npos);
  EXPECT_NE(html.find("int x = a &amp; 31;"), std::string::npos);
  EXPECT_NE(html.find("<td>1</td>"), std::string::npos);
}

TEST(ServeVerify, PartialResultReplacesTheFilesItCompiled) {
  const nlohmann::json previous = {
      {"units",
       {{{"file", "a.cu"}, {"arch", "gfx906"}, {"status", "pass"}},
        {{"file", "b.cu"}, {"arch", "gfx906"}, {"status", "fail"}, {"class", "migration-defect"}}}},
      {"original_checks", {{"b.cu", {{"state", "compiles"}}}}},
      {"summary", {{"passed", 1}, {"compiles", 2}}}};
  const nlohmann::json partial = {{"units", {{{"file", "b.cu"}, {"arch", "gfx906"}, {"status", "pass"}}}},
                                  {"original_checks", nlohmann::json::object()},
                                  {"summary", {{"passed", 1}, {"compiles", 1}, {"wall_seconds", 3.0}}}};
  const nlohmann::json m = report::merge_verify(previous, partial);
  ASSERT_EQ(m["units"].size(), 2u);
  EXPECT_EQ(m["units"][1]["file"], "b.cu");
  EXPECT_EQ(m["units"][1]["status"], "pass");
  EXPECT_EQ(m["summary"]["passed"], 2);
  EXPECT_EQ(m["summary"]["failed"], 0);
  EXPECT_EQ(m["summary"]["compiles"], 2);
  EXPECT_EQ(m["summary"]["exit_code"], 0);
  EXPECT_FALSE(m["original_checks"].contains("b.cu"));
  EXPECT_EQ(report::merge_verify(nullptr, partial), partial);
}

TEST(ServeJobs, RunsInOrderWithACapAndCancels) {
  JobQueue q(2);
  std::atomic<bool> release{false};
  std::atomic<bool> saw_cancel{false};
  const auto first = q.submit("verify", "blocks until cancelled", [&](JobContext& ctx) {
    ctx.set_total(2);
    ctx.advance();
    while (!ctx.cancelled() && !release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    saw_cancel = ctx.cancelled();
    return nlohmann::json{{"x", 1}};
  });
  ASSERT_TRUE(first);
  const auto second = q.submit("verify", "queued", [](JobContext&) { return nlohmann::json{{"ran", true}}; });
  ASSERT_TRUE(second);
  EXPECT_FALSE(q.submit("verify", "over the cap", [](JobContext&) { return nlohmann::json(); }));
  // The first runs, the second waits; cancelling the queued one drops it.
  for (int i = 0; i < 200 && q.get(*first)->at("state") != "running"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(q.get(*first)->at("state"), "running");
  EXPECT_EQ(q.get(*first)->at("done"), 1);
  EXPECT_TRUE(q.cancel(*second));
  EXPECT_EQ(q.get(*second)->at("state"), "cancelled");
  const std::uint64_t v = q.version();
  EXPECT_TRUE(q.cancel(*first));
  EXPECT_NE(q.wait_for_change(v, std::chrono::seconds(5)), v);
  q.drain();
  EXPECT_TRUE(saw_cancel);
  EXPECT_EQ(q.get(*first)->at("state"), "cancelled");
  std::string why;
  EXPECT_FALSE(q.cancel(*first, &why));
  // A round is not stopped half-way; failures are reported with their message.
  const auto round = q.submit(
      "round", "r",
      [&](JobContext&) -> nlohmann::json {
        while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        throw std::runtime_error("input gone");
      },
      /*cancellable_while_running=*/false);
  for (int i = 0; i < 200 && q.get(*round)->at("state") != "running"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(q.cancel(*round, &why));
  EXPECT_NE(why.find("half-way"), std::string::npos);
  release = true;
  q.drain();
  EXPECT_EQ(q.get(*round)->at("state"), "failed");
  EXPECT_EQ(q.get(*round)->at("error"), "input gone");
}

TEST(Rounds, MergedOutputsStillCarryHandEdits) {
  const std::string gen = migrate::content_hash("generated\n");
  const std::string merged = migrate::content_hash("generated\nmine\n");
  // Written as generated, untouched: no edits; touched: edits.
  EXPECT_FALSE(migrate::rounds::carries_hand_edits({{"output_hash", gen}, {"generated", gen}}, gen));
  EXPECT_TRUE(migrate::rounds::carries_hand_edits({{"output_hash", gen}, {"generated", gen}}, merged));
  // Written merged (output != generated) and untouched since: it still carries the user's edit.
  EXPECT_TRUE(migrate::rounds::carries_hand_edits({{"output_hash", merged}, {"generated", gen}}, merged));
  // Conflict markers left as written: an unresolved conflict, not an edit.
  EXPECT_FALSE(
      migrate::rounds::carries_hand_edits({{"output_hash", merged}, {"generated", gen}, {"conflict", true}}, merged));
}

// A manifest written before options.target_options existed keeps the HIP target's choices under
// their own keys ("launch", "blas", "hip_data_types", "wave64_fix"...): a round in the workbench
// must read them there, drop the ones the target does not take, and record them the new way.
TEST_F(TempTree, RoundReadsTheOptionsOfALegacyManifest) {
  fs::create_directories(dir_ / "in");
  write("in/k.cu",
        "#include <cublas_v2.h>\n"
        "__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\n"
        "void run(float* p) {\n  cublasHandle_t h;\n  cublasCreate(&h);\n  k<<<1, 32>>>(p);\n}\n");
  migrate::TreeOptions tree;
  tree.input = dir_ / "in";
  tree.output = dir_ / "out";
  const targets::Options defaults;
  (void)migrate::migrate_tree(*targets::make_target("hip", defaults), defaults, tree);
  ASSERT_NE(read("out/k.cu").find("hipblasCreate(&h);"), std::string::npos);
  ASSERT_NE(read("out/k.cu").find("k<<<1, 32>>>(p);"), std::string::npos);

  // The options as Ferry 0.x wrote them; cuda_version is no option of the HIP target.
  nlohmann::json m = nlohmann::json::parse(read("out/.ferry/manifest.json"));
  ASSERT_TRUE(m["options"].contains("target_options"));
  m["options"] = {{"launch", "ggl"},
                  {"blas", "rocblas"},
                  {"sparse", ""},
                  {"hip_version", ""},
                  {"cuda_version", "12.4"},
                  {"hip_data_types", true},
                  {"wave64_fix", false},
                  {"rules", nlohmann::json::array()},
                  {"cwd", dir_.string()},
                  {"arch", "gfx906"},
                  {"max_file_size", 1 << 20}};
  write("out/.ferry/manifest.json", m.dump());

  WorkspaceOptions wo;
  wo.out = dir_ / "out";
  Workspace ws(wo);
  JobQueue q(1);
  const auto id = q.submit("round", "legacy", [&](JobContext& ctx) { return run_round_job(ws, 1, ctx); });
  ASSERT_TRUE(id);
  q.drain();
  const nlohmann::json job = *q.get(*id);
  ASSERT_EQ(job.at("state"), "done") << job.dump();

  const std::string out = read("out/k.cu");
  EXPECT_NE(out.find("rocblas_create_handle(&h);"), std::string::npos) << out;
  EXPECT_NE(out.find("hipLaunchKernelGGL(k, 1, 32, 0, 0, p);"), std::string::npos) << out;
  const nlohmann::json after = nlohmann::json::parse(read("out/.ferry/manifest.json"));
  const nlohmann::json& o = after["options"]["target_options"];
  EXPECT_EQ(o["launch"], "ggl");
  EXPECT_EQ(o["blas"], "rocblas");
  EXPECT_EQ(o["sparse"], "hipsparse");  // empty in 0.x: the default
  EXPECT_EQ(o["hip-data-types"], "1");
  EXPECT_EQ(o["no-wave64-fix"], "1");
  EXPECT_FALSE(o.contains("cuda-version"));
  EXPECT_EQ(after["options"]["arch"], "gfx906");
  EXPECT_EQ(after["options"]["max_file_size"], 1 << 20);
}

TEST(TargetOptions, FindOptionByName) {
  const targets::TargetInfo* hip = targets::find_target("hip");
  ASSERT_NE(hip, nullptr);
  const targets::OptionSpec* launch = targets::find_option(*hip, "launch");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->name, "launch");
  EXPECT_EQ(launch->default_value, "chevron");
  EXPECT_EQ(targets::find_option(*hip, "--launch"), nullptr);
  EXPECT_EQ(targets::find_option(*hip, "lau"), nullptr);
  EXPECT_EQ(targets::find_option(*hip, "cuda-version"), nullptr);
}

TEST_F(TempTree, FixesPlanAgainOnlyWhenTheTreeChanged) {
  fs::create_directories(dir_ / "in");
  write("in/k.cu",
        "#include \"w.h\"\n"
        "__global__ void k(int* o) { int lane = threadIdx.x % WARP; o[threadIdx.x] = lane; }\n");
  write("in/w.h", "#define WARP 32\n");
  migrate::TreeOptions tree;
  tree.input = dir_ / "in";
  tree.output = dir_ / "out";
  targets::Options keep;  // the output keeps its 32-lane assumptions: the workbench offers fixes
  keep.values["no-wave64-fix"] = "1";
  (void)migrate::migrate_tree(*targets::make_target("hip", keep), keep, tree);
  WorkspaceOptions wo;
  wo.out = dir_ / "out";
  wo.fix_profile = analysis::find_profile("gfx906");
  Workspace ws(wo);
  auto ids = [](const std::vector<Fix>& fixes) {
    std::vector<std::string> v;
    for (const Fix& f : fixes) v.push_back(f.id);
    return v;
  };
  const auto first = ids(ws.fixes("k.cu"));
  EXPECT_EQ(ws.fix_plans(), 1u);
  EXPECT_EQ(ids(ws.fixes("k.cu")), first);  // the same tree: the plan is reused
  EXPECT_EQ(ws.fix_plans(), 1u);
  (void)ws.fixes_for_text("k.cu", read("out/k.cu") + "// edited\n");  // another text of the file
  EXPECT_EQ(ws.fix_plans(), 2u);
  write("out/w.h", "#define WARP 32\n#define OTHER 1\n");  // another file of the tree changed
  EXPECT_EQ(ids(ws.fixes("k.cu")), first);
  EXPECT_EQ(ws.fix_plans(), 3u);
  EXPECT_EQ(ids(ws.fixes("k.cu")), first);
  EXPECT_EQ(ws.fix_plans(), 3u);
}
