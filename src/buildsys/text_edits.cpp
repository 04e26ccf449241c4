#include "buildsys/text_edits.h"

#include <algorithm>
#include <cstdint>

#include "rewrite/edit_set.h"

namespace ferry::buildsys {

std::string apply_text_edits(std::string_view src, std::vector<TextEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  rewrite::EditSet set;
  std::size_t claimed = 0;  // the end of the last edit taken
  for (TextEdit& e : edits) {
    if (e.begin < claimed) continue;
    // Taken edits follow each other without overlap, so the set accepts each and keeps this order.
    (void)set.replace(static_cast<std::uint32_t>(e.begin), static_cast<std::uint32_t>(e.end), std::move(e.text));
    claimed = e.end;
  }
  return set.apply(src);
}

}  // namespace ferry::buildsys
