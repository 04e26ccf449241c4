// Lexing throughput and the memory of a lexed file.
//
//   ferry_bench_lex FILE [REPS]
//
// Times, in CPU seconds (the first run, whose fresh memory costs page faults as in a migration,
// and the best of REPS runs, default 5): lex::lex (the tokens), a
// lex::CodeView (tokens, code index, keys, bracket partners) and a CodeView with its name index
// (the first occurrences() call). Prints MB/s of source for each, the token counts, and the bytes
// the view holds per byte of source (CodeView::memory_bytes, capacity included).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "lex/code_view.h"

namespace {

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Times {
  double first = 0, best = 1e30;
};

template <typename F>
Times best_of(int reps, F&& f) {
  Times t;
  for (int i = 0; i < reps; ++i) {
    const double t0 = cpu_now();
    f();
    const double dt = cpu_now() - t0;
    if (i == 0) t.first = dt;
    t.best = std::min(t.best, dt);
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ferry_bench_lex FILE [REPS]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ferry_bench_lex: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string src = ss.str();
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const double mb = static_cast<double>(src.size()) / 1e6;

  std::size_t tokens = 0, code = 0, bytes_view = 0, bytes_names = 0;
  const Times t_lex = best_of(reps, [&] { tokens = ferry::lex::lex(src).size(); });
  const Times t_view = best_of(reps, [&] {
    const ferry::lex::CodeView v(src);
    code = v.code_size();
    bytes_view = v.memory_bytes();
  });
  const Times t_names = best_of(reps, [&] {
    const ferry::lex::CodeView v(src);
    (void)v.occurrences("threadIdx");
    bytes_names = v.memory_bytes();
  });
  std::printf("%s: %.2f MB, %zu tokens, %zu code tokens\n", argv[1], mb, tokens, code);
  std::printf("  %-22s %8s %9s %8s %9s\n", "", "first s", "MB/s", "best s", "MB/s");
  auto row = [&](const char* what, const Times& t) {
    std::printf("  %-22s %8.4f %9.1f %8.4f %9.1f", what, t.first, mb / t.first, t.best, mb / t.best);
  };
  row("lex (tokens)", t_lex);
  std::printf("\n");
  row("CodeView", t_view);
  std::printf("   %5.2f bytes per source byte\n", static_cast<double>(bytes_view) / static_cast<double>(src.size()));
  row("CodeView + name index", t_names);
  std::printf("   %5.2f bytes per source byte\n", static_cast<double>(bytes_names) / static_cast<double>(src.size()));
  return 0;
}
