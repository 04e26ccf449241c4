#include "report/progress.h"

#include <sstream>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace ferry::report {
namespace {

TEST(Progress, RendersCountRateAndEta) {
  // 100 of 400 files, 25 MB of 100 MB in 5 s: 5.0 MB/s, three quarters left -> 15 s.
  const std::string s = Progress::render("migrate", 100, 400, 25'000'000, 100'000'000, 5.0);
  EXPECT_EQ(s, "migrate [######------------------] 100/400 files  5.0 MB/s  ETA 0:15");
}

TEST(Progress, WithoutBytesCountsFiles) {
  const std::string s = Progress::render("verify", 3, 4, 0, 0, 6.0);
  EXPECT_NE(s.find("3/4 files"), std::string::npos) << s;
  EXPECT_NE(s.find("0.5 files/s"), std::string::npos) << s;
  EXPECT_NE(s.find("ETA 0:02"), std::string::npos) << s;
}

TEST(Progress, DoneAndLongEta) {
  EXPECT_NE(Progress::render("scan", 4, 4, 10, 10, 61.0).find("done in 1:01"), std::string::npos);
  EXPECT_NE(Progress::render("scan", 1, 1000, 1, 1000, 10.0).find("ETA 2:46:30"), std::string::npos);
  EXPECT_NE(Progress::render("scan", 0, 10, 0, 100, 0.0).find("ETA --:--"), std::string::npos);
}

TEST(Progress, ThrottlesRedrawsWithAFakeClock) {
  double now = 0;
  std::ostringstream out;
  Progress p(
      out, "migrate", true, [&] { return now; }, 0.1);
  p.start(3, 300);
  EXPECT_EQ(out.str(), "\rmigrate [------------------------] 0/3 files  ETA --:--\x1b[K");
  now = 0.05;
  p.advance(100);  // within 100 ms of the last draw: not drawn
  EXPECT_EQ(out.str().find("1/3"), std::string::npos);
  now = 0.2;
  p.advance(100);
  EXPECT_NE(out.str().find("2/3 files  0.0 MB/s  ETA 0:00"), std::string::npos) << out.str();
  now = 1.0;
  p.advance(100);
  p.finish();
  const std::string s = out.str();
  EXPECT_NE(s.find("3/3 files"), std::string::npos) << s;
  EXPECT_NE(s.find("done in 0:01"), std::string::npos) << s;
  EXPECT_EQ(s.back(), '\n');
  p.finish();  // a second finish draws nothing
  EXPECT_EQ(out.str(), s);
}

TEST(Progress, DisabledWritesNothing) {
  std::ostringstream out;
  {
    Progress p(out, "migrate", false, [] { return 0.0; });
    p.start(2, 0);
    p.advance(1);
    p.advance(1);
  }
  EXPECT_TRUE(out.str().empty());
}

TEST(Progress, CountsEveryFileFromManyThreads) {
  double now = 0;
  std::ostringstream out;
  Progress p(
      out, "migrate", true, [&] { return now; }, 0.0);
  auto start = p.start_hook();
  auto done = p.done_hook();
  start(800, 800);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&] {
      for (int i = 0; i < 100; ++i) done(1);
    });
  for (auto& t : pool) t.join();
  p.finish();
  EXPECT_NE(out.str().find("800/800 files"), std::string::npos);
  EXPECT_EQ(out.str().find("801/"), std::string::npos);
}

}  // namespace
}  // namespace ferry::report
