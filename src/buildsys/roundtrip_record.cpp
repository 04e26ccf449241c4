#include "buildsys/roundtrip_record.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "buildsys/build_files.h"
#include "buildsys/cmake_syntax.h"
#include "buildsys/make_syntax.h"
#include "core/split.h"

namespace ferry::buildsys {
namespace {

constexpr std::string_view kCudaHeader = "# ferry-cuda-was ";
constexpr std::string_view kHipHeader = "# ferry-hip-was ";
constexpr std::string_view header_of(RecordOf of) { return of == RecordOf::Cuda ? kCudaHeader : kHipHeader; }
constexpr std::string_view kOrig = "# | ";

std::uint32_t fnv1a(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

std::string hex8(std::uint32_t h) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

// split[k]: a record may be inserted before line k (0-based); split[size] is true.
std::vector<bool> split_points(std::string_view text, const std::vector<std::string_view>& lines, BuildSyntax syntax) {
  std::vector<bool> ok(lines.size() + 1, true);
  if (syntax == BuildSyntax::Make) {
    for (const make::LogicalLine& l : make::logical_lines(text))
      for (std::uint32_t k = 1; k < l.lines; ++k) ok[l.line - 1 + k] = false;
    return ok;
  }
  try {
    for (const CMakeCommand& c : parse_cmake(text)) {
      const auto last = c.line + static_cast<std::uint32_t>(std::count(text.begin() + static_cast<long>(c.begin),
                                                                       text.begin() + static_cast<long>(c.end), '\n'));
      for (std::uint32_t l = c.line + 1; l <= last && l - 1 < ok.size(); ++l) ok[l - 1] = false;
    }
  } catch (const std::exception&) {
  }
  return ok;
}

struct Hunk {
  std::size_t a0, a1, b0, b1;  // original lines [a0, a1) became migrated lines [b0, b1)
};

std::vector<Hunk> diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  const std::size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  std::vector<Hunk> hunks;
  if (n == 0 && m == 0) return hunks;
  if (n * m > 4'000'000) return {{pre, pre + n, pre, pre + m}};
  // Longest common subsequence over the middle part, then the unmatched runs are hunks.
  std::vector<std::uint32_t> L((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return L[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      at(i, j) = a[pre + i] == b[pre + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[pre + i] == b[pre + j]) {
      ++i, ++j;
      continue;
    }
    Hunk h{pre + i, pre + i, pre + j, pre + j};
    while ((i < n || j < m) && !(i < n && j < m && a[pre + i] == b[pre + j])) {
      if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) ++j;
      else ++i;
    }
    h.a1 = pre + i;
    h.b1 = pre + j;
    hunks.push_back(h);
  }
  return hunks;
}

}  // namespace

std::string record_originals(std::string_view original, std::string_view migrated, BuildSyntax syntax, RecordOf of) {
  if (original == migrated) return std::string(migrated);
  const std::string_view head = header_of(of);
  const auto a = split_lines(original), b = split_lines(migrated);
  const auto sa = split_points(original, a, syntax), sb = split_points(migrated, b, syntax);
  std::vector<Hunk> hunks = diff_lines(a, b);
  // Widen each hunk to whole logical lines / commands on both sides (the lines around a hunk are
  // equal on both sides, so widening by the same count keeps them aligned), then merge.
  for (Hunk& h : hunks) {
    while (h.a0 > 0 && h.b0 > 0 && !(sa[h.a0] && sb[h.b0])) --h.a0, --h.b0;
    while (h.a1 < a.size() && h.b1 < b.size() && !(sa[h.a1] && sb[h.b1])) ++h.a1, ++h.b1;
  }
  std::vector<Hunk> merged;
  for (const Hunk& h : hunks) {
    if (!merged.empty() && h.a0 <= merged.back().a1) {
      merged.back().a1 = std::max(merged.back().a1, h.a1);
      merged.back().b1 = std::max(merged.back().b1, h.b1);
    } else {
      merged.push_back(h);
    }
  }
  std::string out;
  std::size_t bj = 0;
  for (const Hunk& h : merged) {
    for (; bj < h.b0; ++bj) out += b[bj];
    std::string now;
    for (std::size_t k = h.b0; k < h.b1; ++k) now += b[k];
    const bool noeol = h.a1 == a.size() && !a.empty() && !a.back().ends_with('\n');
    if (!now.empty() && !now.ends_with('\n')) now += "\n";  // the record must not swallow what follows
    out += std::string(head) + "N=" + std::to_string(h.b1 - h.b0) + " M=" + std::to_string(h.a1 - h.a0) +
           " h=" + hex8(fnv1a(now)) + (noeol ? " noeol" : "") + "\n";
    for (std::size_t k = h.a0; k < h.a1; ++k) {
      std::string_view l = a[k];
      if (l.ends_with('\n')) l.remove_suffix(1);
      out += std::string(kOrig) + std::string(l) + "\n";
    }
    out += now;
    bj = h.b1;
  }
  for (; bj < b.size(); ++bj) out += b[bj];
  return out;
}

Restored restore_originals(std::string_view text, RecordOf of) {
  const std::string_view head = header_of(of);
  Restored r;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size();) {
    const std::string_view l = lines[i];
    std::size_t n = 0, m = 0;
    unsigned h = 0;
    char tail[8] = {0};
    int got = 0;
    if (l.starts_with(head)) {
      const std::string s(l.substr(head.size()));
      got = std::sscanf(s.c_str(), "N=%zu M=%zu h=%8x %7s", &n, &m, &h, tail);
    }
    std::size_t origs = 0;  // original lines actually there
    while (got >= 3 && origs < m && i + 1 + origs < lines.size() && lines[i + 1 + origs].starts_with(kOrig)) ++origs;
    if (got < 3 || origs < m) {
      r.text += l;
      ++i;
      continue;
    }
    const bool noeol = got == 4 && std::string_view(tail) == "noeol";
    const std::size_t first_new = i + 1 + m;
    const std::size_t have = std::min(n, lines.size() - first_new);
    std::string now;
    for (std::size_t k = 0; k < have; ++k) now += lines[first_new + k];
    if (have == n && fnv1a(now) == h) {
      const std::size_t begin = r.text.size();
      for (std::size_t k = 0; k < m; ++k) {
        std::string_view o = lines[i + 1 + k].substr(kOrig.size());
        if (o.ends_with('\n')) o.remove_suffix(1);
        r.text += o;
        if (!(noeol && k + 1 == m)) r.text += "\n";
      }
      r.restored.emplace_back(begin, r.text.size());
      i = first_new + n;
    } else {
      // Edited since the migration: the record no longer says what these lines were.
      r.edited.push_back(static_cast<std::uint32_t>(i + 1));
      i = first_new;
    }
  }
  return r;
}

}  // namespace ferry::buildsys
