// Tiny self-checking harness for the wave64 runtime tests: CHECK_EQ counts failures and prints
// the first few; finish() prints a summary line and gives the exit code.
#pragma once
#include <cstdio>

static int g_checks = 0;
static int g_failures = 0;

#define CHECK_EQ(got, want, ...)                                                                                  \
  do {                                                                                                            \
    ++g_checks;                                                                                                   \
    const auto g_ = (got);                                                                                        \
    const auto w_ = (want);                                                                                       \
    if (!(g_ == w_)) {                                                                                            \
      if (++g_failures <= 20) {                                                                                   \
        std::printf("FAIL %s:%d: %s == %s: got %lld want %lld  ", __FILE__, __LINE__, #got, #want, (long long)g_, \
                    (long long)w_);                                                                               \
        std::printf(__VA_ARGS__);                                                                                 \
        std::printf("\n");                                                                                        \
      }                                                                                                           \
    }                                                                                                             \
  } while (0)

inline int finish(const char* name) {
  std::printf("%s: %d checks, %d failures\n", name, g_checks, g_failures);
  return g_failures ? 1 : 0;
}
