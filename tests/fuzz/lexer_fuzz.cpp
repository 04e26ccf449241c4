// libFuzzer target beside the lexer: any bytes tokenize without a crash or a hang, the tokens
// cover the input exactly once in order (the lexer is lossless), and lex::CodeView pairs its
// brackets symmetrically. Run by tests/fuzz/run_fuzz.sh (make test: a short run).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lex/code_view.h"
#include "lex/lexer.h"
#include "lex/python_lexer.h"

namespace {

void require(bool ok) {
  if (!ok) std::abort();  // libFuzzer reports the input that broke the property
}

template <typename Tokens>
void check_cover(std::string_view src, const Tokens& toks) {
  std::uint32_t at = 0;
  for (const auto& t : toks) {
    require(t.begin == at && t.end > t.begin && t.end <= src.size());
    at = t.end;
  }
  require(at == src.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view src(reinterpret_cast<const char*>(data), size);
  check_cover(src, ferry::lex::tokenize(src));
  check_cover(src, ferry::lex::py::tokenize(src));
  const ferry::lex::CodeView v(src);
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    const std::size_t p = v.partner(ci);
    if (p != ferry::lex::npos) require(p < v.code_size() && v.partner(p) == ci);
    (void)v.call_args(ci);
    (void)v.is_member_name(ci);
  }
  return 0;
}
