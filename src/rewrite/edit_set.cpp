#include "rewrite/edit_set.h"

#include <algorithm>
#include <cstring>

namespace ferry::rewrite {

namespace {
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
    if (map) {
      const char* const end = src.data() + to;
      for (const char* q = src.data() + from; (q = static_cast<const char*>(std::memchr(q, '\n', end - q))); ++q) {
        ++orig_line;
        ++out_line;
        map->out_to_orig.push_back(orig_line);
      }
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
      if (e.replacement.empty()) mark();
      for (char ch : e.replacement) {
        mark();
        if (ch == '\n') {
          ++out_line;
          map->out_to_orig.push_back(start_line);
        }
      }
      for (std::size_t i = e.begin; i < e.end; ++i)
        if (src[i] == '\n') ++orig_line;
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
