// Migration throughput against raw copying, measured in the same run.
//
// Builds a corpus of at least --mb MiB by replicating the C-family sources of the examples
// (each copy under its own folder, so the tree looks like a large project), then times:
//   raw     read every file and write it to an output tree (the floor any migrator pays),
//   migrate ferry's migrate_tree with --jobs 1 and --jobs N (lexing, passes, rules, writing).
// Prints MB/s of source and the ratio migrate/raw. Each measurement is the best of --reps runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "migrate/migrate_tree.h"
#include "project/project.h"
#include "targets/target.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using namespace ferry;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::uintmax_t build_corpus(const fs::path& examples, const fs::path& corpus, std::uintmax_t want) {
  std::vector<fs::path> seeds;
  for (const auto& e : fs::recursive_directory_iterator(examples)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), examples).generic_string();
    if (rel.find("/build") != std::string::npos || rel.rfind("build", 0) == 0) continue;
    if (project::is_c_family(project::classify(e.path()))) seeds.push_back(e.path());
  }
  if (seeds.empty()) throw std::runtime_error("no example sources under " + examples.string());
  std::uintmax_t total = 0;
  for (int copy = 0; total < want; ++copy) {
    for (const fs::path& s : seeds) {
      const fs::path dst = corpus / ("copy" + std::to_string(copy)) / fs::relative(s, examples);
      fs::create_directories(dst.parent_path());
      fs::copy_file(s, dst, fs::copy_options::overwrite_existing);
      total += fs::file_size(dst);
    }
  }
  return total;
}

double time_raw(const fs::path& corpus, const fs::path& out) {
  fs::remove_all(out);
  const auto t0 = Clock::now();
  for (const auto& e : fs::recursive_directory_iterator(corpus)) {
    if (!e.is_regular_file()) continue;
    const std::string data = project::read_file(e.path());
    project::write_atomically(out / fs::relative(e.path(), corpus), data);
  }
  return seconds_since(t0);
}

double time_migrate(const targets::Target& target, const targets::Options& opt, const fs::path& corpus,
                    const fs::path& out, unsigned jobs) {
  fs::remove_all(out);
  migrate::TreeOptions tree;
  tree.input = corpus;
  tree.output = out;
  tree.jobs = jobs;
  const auto t0 = Clock::now();
  const migrate::TreeResult r = migrate::migrate_tree(target, opt, tree);
  const double s = seconds_since(t0);
  if (r.files.empty()) throw std::runtime_error("migrated nothing");
  return s;
}

// Lexing, passes and rules only: every file already in memory, outputs discarded.
double time_in_memory(const targets::Target& target, const targets::Options& opt,
                      const std::vector<std::string>& texts) {
  const targets::ProjectContext ctx;
  std::size_t sink = 0;
  const auto t0 = Clock::now();
  for (const std::string& t : texts) sink += migrate::migrate_buffer("f.cu", t, target, opt, ctx).output.size();
  const double s = seconds_since(t0);
  if (sink == 0) throw std::runtime_error("empty output");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::uintmax_t mb = 50;
  int reps = 3;
  unsigned jobs = std::max(2u, std::thread::hardware_concurrency());
  fs::path examples = fs::path(FERRY_SOURCE_DIR) / "examples";
  fs::path work = fs::temp_directory_path() / "ferry-bench-migrate";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mb") && i + 1 < argc) mb = std::stoull(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (!std::strcmp(argv[i], "--examples") && i + 1 < argc) examples = argv[++i];
    else if (!std::strcmp(argv[i], "--work") && i + 1 < argc) work = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--mb N] [--reps N] [--jobs N] [--examples DIR] [--work DIR]\n", argv[0]);
      return 2;
    }
  }
  try {
    fs::remove_all(work);
    const fs::path corpus = work / "corpus";
    const std::uintmax_t bytes = build_corpus(examples, corpus, mb << 20);
    std::size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(corpus)) files += e.is_regular_file();
    const auto target = targets::make_target("hip", {});
    targets::Options opt;

    std::vector<std::string> texts;
    for (const auto& e : fs::recursive_directory_iterator(corpus))
      if (e.is_regular_file()) texts.push_back(project::read_file(e.path()));

    double raw = 1e9, mig1 = 1e9, migN = 1e9, mem = 1e9;
    for (int r = 0; r < reps; ++r) {
      mem = std::min(mem, time_in_memory(*target, opt, texts));
      raw = std::min(raw, time_raw(corpus, work / "raw"));
      mig1 = std::min(mig1, time_migrate(*target, opt, corpus, work / "out1", 1));
      migN = std::min(migN, time_migrate(*target, opt, corpus, work / "outN", jobs));
    }
    const double mbytes = static_cast<double>(bytes) / (1 << 20);
    std::printf("corpus: %zu files, %.1f MiB (examples replicated); best of %d runs\n", files, mbytes, reps);
    std::printf("%-28s %10s %10s %14s\n", "measurement", "seconds", "MiB/s", "ratio vs raw");
    std::printf("%-28s %10.3f %10.1f %14s\n", "raw read+write (baseline)", raw, mbytes / raw, "1.00x");
    std::printf("%-28s %10.3f %10.1f %13.2fx\n", "ferry migrate --jobs 1", mig1, mbytes / mig1, mig1 / raw);
    char label[64];
    std::snprintf(label, sizeof label, "ferry migrate --jobs %u", jobs);
    std::printf("%-28s %10.3f %10.1f %13.2fx\n", label, migN, mbytes / migN, migN / raw);
    std::printf("%-28s %10.3f %10.1f %13.2fx\n", "engine only, in memory, 1 core", mem, mbytes / mem, mem / raw);
    std::printf(
        "per core: engine %.1f MiB/s, whole tree %.1f MiB/s (target >= 100); whole-tree migrate takes "
        "%.2fx the time of raw copying (target <= 10x)\n",
        mbytes / mem, mbytes / mig1, mig1 / raw);
    fs::remove_all(work);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferry_bench_migrate: %s\n", e.what());
    return 1;
  }
  return 0;
}
