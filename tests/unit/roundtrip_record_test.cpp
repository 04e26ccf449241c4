#include "rewrite/roundtrip_record.h"

#include <gtest/gtest.h>

#include <string>

namespace ferry::rewrite::record {
namespace {

TEST(RoundtripRecord, MentionsFindsTheMarkAnywhere) {
  EXPECT_TRUE(mentions(make("<cuda.h>")));
  EXPECT_TRUE(mentions("/* see ferry-cuda:<cuda.h> */"));  // written by hand, no blank
  EXPECT_TRUE(mentions("int a;\n#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */\n"));
  EXPECT_FALSE(mentions("/* ferry-cuda */"));
  EXPECT_FALSE(mentions(""));
}

// The raw index of the first token whose text is `text`.
std::size_t raw_index(const lex::TokenList& toks, std::string_view src, std::string_view text) {
  for (std::size_t i = 0; i < toks.size(); ++i)
    if (toks[i].text(src) == text) return i;
  return toks.size();
}

TEST(RoundtripRecord, MentionedAfterLooksOnTheTokensLineOnly) {
  const std::string src =
      "#include <hip/hip_runtime.h> /* note: ferry-cuda: <cuda.h> */\n"
      "#include <hip/hip_fp16.h>\n"
      "/* ferry-cuda: <cuda_fp16.h> */\n"
      "int x; // ferry-cuda: by hand\n"
      "int y; int z; /* ferry-cuda: (none) */\n";
  const lex::CodeView v(src);
  const lex::TokenList& toks = v.tokens();
  EXPECT_TRUE(mentioned_after(toks, src, raw_index(toks, src, "<hip/hip_runtime.h>")));
  EXPECT_FALSE(mentioned_after(toks, src, raw_index(toks, src, "<hip/hip_fp16.h>")));  // the next line's
  EXPECT_TRUE(mentioned_after(toks, src, raw_index(toks, src, "x") + 1));              // `;`, a line comment
  EXPECT_FALSE(mentioned_after(toks, src, raw_index(toks, src, "y")));                 // code between
  EXPECT_FALSE(mentioned_after(toks, src, toks.size()));
}

}  // namespace
}  // namespace ferry::rewrite::record
