#include "rewrite/edit_set.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <numeric>

namespace ferry::rewrite {

namespace {
// The newlines in [p, e): sixteen bytes a step where SSE2 is there, each lane counting its own
// (a match is -1, subtracted) for up to 255 steps before the lanes are summed. The line map asks
// this of the whole text between edits, where a memchr per line cost a call per line.
std::size_t count_newlines(const char* p, const char* e) {
  std::size_t n = 0;
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  for (std::size_t blocks = static_cast<std::size_t>(e - p) / 16; blocks > 0;) {
    const std::size_t run = std::min<std::size_t>(blocks, 255);
    blocks -= run;
    __m128i lanes = _mm_setzero_si128();
    for (const char* const stop = p + 16 * run; p != stop; p += 16)
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl));
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());  // two 64-bit sums of eight lanes
    n += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
         static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; p < e; ++p) n += *p == '\n';
  return n;
}
bool ranges_overlap(std::uint32_t b1, std::uint32_t e1, std::uint32_t b2, std::uint32_t e2) {
  // Two insertions at the same point do not overlap; an insertion strictly inside a replaced
  // range does.
  if (b1 == e1 && b2 == e2) return false;
  if (b1 == e1) return b1 > b2 && b1 < e2;
  if (b2 == e2) return b2 > b1 && b2 < e1;
  return b1 < e2 && b2 < e1;
}
}  // namespace

bool LineMap::is_changed(std::uint32_t out_line) const {
  return std::binary_search(changed_out_lines.begin(), changed_out_lines.end(), out_line);
}

bool EditSet::overlaps(std::uint32_t begin, std::uint32_t end) const {
  // Edits are sorted by begin; only those starting before `end` can overlap.
  auto it = edits_.lower_bound(end + 1);
  while (it != edits_.begin()) {
    --it;
    if (ranges_overlap(begin, end, it->begin, it->end)) return true;
    // Edits never overlap each other, so once one ends at or before `begin`, no earlier one
    // can reach past it, except zero-width ones at the same offset, which cannot overlap.
    if (it->end <= begin && it->begin < begin) break;
  }
  return false;
}

bool EditSet::replace(std::uint32_t begin, std::uint32_t end, std::string text) {
  if (end < begin || overlaps(begin, end)) return false;
  edits_.insert(Edit{begin, end, std::move(text), next_seq_++});
  stale_ = true;
  return true;
}

const std::vector<Edit>& EditSet::edits() const {
  if (stale_) {
    sorted_.assign(edits_.begin(), edits_.end());
    stale_ = false;
  }
  return sorted_;
}

const Edit* EditSet::find(std::uint32_t begin, std::uint32_t end) const {
  const auto it = edits_.lower_bound(Edit{begin, end, {}, 0});
  return it != edits_.end() && it->begin == begin && it->end == end ? &*it : nullptr;
}

std::string EditSet::apply(std::string_view src, LineMap* map) const {
  std::string out;
  std::size_t growth = 0;
  for (const Edit& e : edits_) growth += e.replacement.size();
  out.reserve(src.size() + growth);

  std::uint32_t orig_line = 1;
  std::uint32_t out_line = 1;
  if (map) {
    map->out_to_orig.clear();
    map->changed_out_lines.clear();
    map->out_to_orig.push_back(1);
  }
  auto copy_unchanged = [&](std::size_t from, std::size_t to) {
    if (map) {  // each line copied maps to the next original line
      const auto lines = static_cast<std::uint32_t>(count_newlines(src.data() + from, src.data() + to));
      const std::size_t at = map->out_to_orig.size();
      map->out_to_orig.resize(at + lines);
      std::iota(map->out_to_orig.begin() + static_cast<std::ptrdiff_t>(at), map->out_to_orig.end(), orig_line + 1);
      orig_line += lines;
      out_line += lines;
    }
    out.append(src.substr(from, to - from));
  };

  std::size_t pos = 0;
  for (const Edit& e : edits_) {
    copy_unchanged(pos, e.begin);
    if (map) {
      const std::uint32_t start_line = orig_line;
      // A line is changed when the edit puts text on it or removes text from it; the line after
      // an inserted "...\n" is not, unless the replacement continues on it.
      auto mark = [&] {
        if (map->changed_out_lines.empty() || map->changed_out_lines.back() != out_line)
          map->changed_out_lines.push_back(out_line);
      };
      // (every line the replacement puts a byte on, its newlines included)
      mark();
      const std::string_view r = e.replacement;
      for (std::size_t nl = r.find('\n'); nl != std::string_view::npos; nl = r.find('\n', nl + 1)) {
        ++out_line;
        map->out_to_orig.push_back(start_line);
        if (nl + 1 < r.size()) mark();
      }
      orig_line += static_cast<std::uint32_t>(count_newlines(src.data() + e.begin, src.data() + e.end));
      // The line after a replacement that swallowed newlines continues at the new original line.
      if (!map->out_to_orig.empty())
        map->out_to_orig.back() =
            e.replacement.empty() || e.replacement.back() != '\n' ? map->out_to_orig.back() : orig_line;
    }
    out.append(e.replacement);
    pos = e.end;
  }
  copy_unchanged(pos, src.size());
  return out;
}

}  // namespace ferry::rewrite
