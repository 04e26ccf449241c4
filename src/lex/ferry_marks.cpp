#include "lex/ferry_marks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <stdexcept>

namespace ferry::lex {

namespace {
struct FerryMarks {
  std::vector<std::uint32_t> at;
};
}  // namespace

std::vector<std::uint32_t> find_ferry_word(std::string_view text) {
  std::vector<std::uint32_t> at;
  const std::size_t n = text.size(), w = kFerryWord.size();
  if (n < w) return at;
  const char* const s = text.data();
  const std::size_t last = n - w;  // the last offset where the word fits
  std::size_t i = 0;
#if defined(__SSE2__)
  // Sixteen offsets at a time: those with its first byte there and its last four bytes on (the
  // pair is rare in code, where 'f' alone is common); each candidate is compared whole.
  const __m128i first = _mm_set1_epi8(kFerryWord.front()), back = _mm_set1_epi8(kFerryWord.back());
  for (; i + 16 <= last + 1; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + w - 1));
    unsigned hits =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, back))));
    for (; hits != 0; hits &= hits - 1) {
      const std::size_t k = i + static_cast<std::size_t>(std::countr_zero(hits));
      if (text.compare(k, w, kFerryWord) == 0) at.push_back(static_cast<std::uint32_t>(k));
    }
  }
#endif
  for (; i <= last; ++i)
    if (s[i] == kFerryWord.front() && text.compare(i, w, kFerryWord) == 0) at.push_back(static_cast<std::uint32_t>(i));
  return at;
}

std::span<const std::uint32_t> ferry_marks(const CodeView& view) {
  return view.memo<FerryMarks>([](const CodeView& v) { return FerryMarks{find_ferry_word(v.source())}; }).at;
}

bool source_mentions(const CodeView& view, std::string_view needle) {
  const std::size_t word = needle.find(kFerryWord);
  if (word == std::string_view::npos) throw std::logic_error("source_mentions: the needle must hold \"ferry\"");
  const std::string_view src = view.source();
  for (const std::uint32_t at : ferry_marks(view))
    if (at >= word && src.compare(at - word, needle.size(), needle) == 0) return true;
  return false;
}

}  // namespace ferry::lex
