// lex/name_hash.h: one value per text on every machine (the ways back's generator places names by
// it at build time), and every byte of a name counts.
#include "lex/name_hash.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ferry::lex {
namespace {

TEST(NameHash, IsTheSameValueEverywhere) {
  // Pinned: a change of the function changes the generated tables too (they are rebuilt with it),
  // but a value that differs between machines would break their lookups.
  EXPECT_EQ(name_hash(""), name_hash(std::string()));
  EXPECT_EQ(name_hash("hipMalloc"), name_hash(std::string("xhipMalloc").substr(1)));
  const std::uint64_t a = name_hash("cudaMemcpyAsync"), b = name_hash("cudaMemcpyAsync");
  EXPECT_EQ(a, b);
}

TEST(NameHash, EveryByteOfANameCounts) {
  for (std::size_t len = 1; len <= 40; ++len) {
    const std::string base(len, 'a');
    const std::uint64_t h = name_hash(base);
    for (std::size_t i = 0; i < len; ++i) {
      std::string other = base;
      other[i] = 'b';
      EXPECT_NE(name_hash(other), h) << len << " " << i;
    }
    EXPECT_NE(name_hash(base + "a"), h) << len;  // the length counts too
  }
}

TEST(NameHash, SpreadsSimilarNames) {
  std::set<std::uint64_t> low_bits;
  for (int i = 0; i < 4096; ++i) low_bits.insert(name_hash("hipName" + std::to_string(i)) & 0xffff);
  EXPECT_GT(low_bits.size(), 3900u);  // few collisions in a table of 65536 slots
}

}  // namespace
}  // namespace ferry::lex
