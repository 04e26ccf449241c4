#include "lex/const_expr.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace ferry::lex {
namespace {

TEST(ConstExpr, IntegerLiterals) {
  EXPECT_EQ(integer_literal("42"), 42ull);
  EXPECT_EQ(integer_literal("0x1fU"), 31ull);
  EXPECT_EQ(integer_literal("017"), 15ull);
  EXPECT_EQ(integer_literal("0b101"), 5ull);
  EXPECT_EQ(integer_literal("1'000'000ull"), 1000000ull);
  EXPECT_EQ(integer_literal("0xffffffffffffffff"), ~0ull);
  EXPECT_EQ(integer_literal("0x10000000000000000"), std::nullopt);  // above 64 bits
  EXPECT_EQ(integer_literal("1.5"), std::nullopt);
  EXPECT_EQ(integer_literal("09"), std::nullopt);
  EXPECT_EQ(integer_literal("u"), std::nullopt);
  EXPECT_TRUE(is_32bit_literal("1u"));
  EXPECT_FALSE(is_32bit_literal("1ul"));
}

TEST(ConstExpr, OneSizeofTable) {
  const auto size = [](std::initializer_list<std::string_view> w) {
    return type_size(std::span<const std::string_view>(w.begin(), w.size()));
  };
  EXPECT_EQ(size({"float"}), 4u);
  EXPECT_EQ(size({"unsigned", "int"}), 4u);
  EXPECT_EQ(size({"unsigned", "long", "long"}), 8u);
  EXPECT_EQ(size({"const", "__half"}), 2u);
  EXPECT_EQ(size({"float4"}), 16u);
  EXPECT_EQ(size({"MyStruct"}), 0u);
}

TEST(ConstExpr, EvaluatesText) {
  EXPECT_EQ(eval_const("(2 + 3) * sizeof(double)"), 40);
  EXPECT_EQ(eval_const("1 << 10 | 3"), 1027);
  EXPECT_EQ(eval_const("~0u"), 0xffffffffLL);
  EXPECT_EQ(eval_const("-1"), -1);
  EXPECT_EQ(eval_const("(unsigned)-1 == -1 ? 7 : 8"), 7);
  EXPECT_EQ(eval_const("static_cast<int>(64 / 2)"), 32);
  EXPECT_EQ(eval_const("10 / 0"), std::nullopt);
  EXPECT_EQ(eval_const("n * 4"), std::nullopt);  // a name, and no names given
  EXPECT_EQ(eval_const("f(2)"), std::nullopt);
  EXPECT_EQ(eval_const("2 +"), std::nullopt);
  EXPECT_EQ(eval_const(""), std::nullopt);
}

TEST(ConstExpr, NamesComeFromTheCaller) {
  struct Names final : ConstNames {
    std::map<std::string, long long, std::less<>> m{{"WARP", 32}, {"TILE", 16}};
    std::optional<long long> value(std::string_view n) const override {
      const auto it = m.find(n);
      return it == m.end() ? std::nullopt : std::optional(it->second);
    }
  } names;
  const CodeView v("x = WARP * TILE + 1;");
  EXPECT_EQ(eval_const(v, 2, 6, &names), 513);
  EXPECT_EQ(eval_const(v, 2, 6), std::nullopt);
  EXPECT_EQ(eval_const(v, 2, 7, &names), std::nullopt);  // ';' is not part of an expression
}

}  // namespace
}  // namespace ferry::lex
