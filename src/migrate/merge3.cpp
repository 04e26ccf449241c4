#include "migrate/merge3.h"

#include <algorithm>
#include <unordered_map>

namespace ferry::migrate {

namespace {

// Beyond this edit distance the quadratic trace would cost too much memory: the differing middle
// becomes one hunk (still a correct diff, just not a minimal one).
constexpr std::size_t kMaxEditDistance = 4000;

// Myers' greedy forward algorithm over [0,n) x [0,m); marks deleted a-lines and inserted b-lines.
void myers(const int* a, std::size_t n, const int* b, std::size_t m, std::vector<bool>& del, std::vector<bool>& ins) {
  const auto N = static_cast<long>(n), M = static_cast<long>(m);
  const long max = N + M;
  std::vector<long> v(static_cast<std::size_t>(2 * max + 3), 0);
  const long off = max + 1;
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= max; ++d) {
    if (static_cast<std::size_t>(d) > kMaxEditDistance) break;
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      long y = x - k;
      while (x < N && y < M && a[x] == b[y]) ++x, ++y;
      v[off + k] = x;
      if (x >= N && y >= M) found = d;
      if (found >= 0) break;
    }
    trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
    if (found >= 0) break;
  }
  if (found < 0) {  // too different: everything in the window changed
    std::fill(del.begin(), del.end(), true);
    std::fill(ins.begin(), ins.end(), true);
    return;
  }
  long x = N, y = M;
  for (long d = found; d > 0; --d) {
    const std::vector<long>& pv = trace[static_cast<std::size_t>(d - 1)];
    auto at = [&](long k) { return pv[static_cast<std::size_t>(k + d - 1)]; };
    const long k = x - y;
    const long pk = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    const long px = at(pk);
    const long py = px - pk;
    while (x > px && y > py) --x, --y;
    if (x == px) ins[static_cast<std::size_t>(py)] = true;
    else del[static_cast<std::size_t>(px)] = true;
    x = px;
    y = py;
  }
}

}  // namespace

std::vector<Hunk> diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::unordered_map<std::string_view, int> ids;
  auto intern = [&](std::string_view s) { return ids.emplace(s, static_cast<int>(ids.size())).first->second; };
  std::vector<int> A, B;
  A.reserve(a.size());
  B.reserve(b.size());
  for (auto s : a) A.push_back(intern(s));
  for (auto s : b) B.push_back(intern(s));
  std::size_t pre = 0;
  while (pre < A.size() && pre < B.size() && A[pre] == B[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < A.size() - pre && suf < B.size() - pre && A[A.size() - 1 - suf] == B[B.size() - 1 - suf]) ++suf;
  const std::size_t n = A.size() - pre - suf, m = B.size() - pre - suf;
  std::vector<bool> del(n, false), ins(m, false);
  if (n == 0) std::fill(ins.begin(), ins.end(), true);
  else if (m == 0) std::fill(del.begin(), del.end(), true);
  else myers(A.data() + pre, n, B.data() + pre, m, del, ins);

  std::vector<Hunk> hunks;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !del[i] && !ins[j]) {
      ++i, ++j;
      continue;
    }
    Hunk h{pre + i, 0, pre + j, 0};
    while ((i < n && del[i]) || (j < m && ins[j])) {
      while (i < n && del[i]) ++i;
      while (j < m && ins[j]) ++j;
    }
    h.a_end = pre + i;
    h.b_end = pre + j;
    hunks.push_back(h);
  }
  return hunks;
}

MergeResult merge3(std::string_view base, std::string_view ours, std::string_view theirs) {
  const auto A = split_lines(base), O = split_lines(ours), T = split_lines(theirs);
  const auto ho = diff_lines(A, O), ht = diff_lines(A, T);
  MergeResult r;
  std::size_t out_lines = 0;
  auto emit = [&](const std::vector<std::string_view>& src, std::size_t from, std::size_t to, bool close_line) {
    for (std::size_t k = from; k < to; ++k) {
      r.text += src[k];
      ++out_lines;
    }
    if (close_line && !r.text.empty() && r.text.back() != '\n') r.text += '\n';
  };
  auto marker = [&](std::string_view m) {
    r.text += m;
    r.text += '\n';
    ++out_lines;
  };

  std::size_t io = 0, it = 0, pos = 0;
  long delta_o = 0, delta_t = 0;
  while (io < ho.size() || it < ht.size()) {
    const bool take_o = it >= ht.size() || (io < ho.size() && ho[io].a_begin <= ht[it].a_begin);
    const std::size_t gs = take_o ? ho[io].a_begin : ht[it].a_begin;
    std::size_t ge = gs;
    long grow_o = 0, grow_t = 0;
    bool has_o = false, has_t = false;
    // Pull in every hunk of either side that overlaps or touches the group.
    for (bool more = true; more;) {
      more = false;
      if (io < ho.size() && ho[io].a_begin <= ge && (ho[io].a_begin >= gs)) {
        ge = std::max(ge, ho[io].a_end);
        grow_o += static_cast<long>(ho[io].b_end - ho[io].b_begin) - static_cast<long>(ho[io].a_end - ho[io].a_begin);
        has_o = more = true;
        ++io;
      }
      if (it < ht.size() && ht[it].a_begin <= ge && (ht[it].a_begin >= gs)) {
        ge = std::max(ge, ht[it].a_end);
        grow_t += static_cast<long>(ht[it].b_end - ht[it].b_begin) - static_cast<long>(ht[it].a_end - ht[it].a_begin);
        has_t = more = true;
        ++it;
      }
    }
    emit(A, pos, gs, false);
    const auto ob = static_cast<std::size_t>(static_cast<long>(gs) + delta_o);
    const auto oe = static_cast<std::size_t>(static_cast<long>(ge) + delta_o + grow_o);
    const auto tb = static_cast<std::size_t>(static_cast<long>(gs) + delta_t);
    const auto te = static_cast<std::size_t>(static_cast<long>(ge) + delta_t + grow_t);
    delta_o += grow_o;
    delta_t += grow_t;
    if (!has_t) {
      emit(O, ob, oe, false);
    } else if (!has_o) {
      emit(T, tb, te, false);
    } else if (std::equal(O.begin() + static_cast<long>(ob), O.begin() + static_cast<long>(oe),
                          T.begin() + static_cast<long>(tb), T.begin() + static_cast<long>(te))) {
      emit(O, ob, oe, false);
    } else {
      ++r.conflicts;
      if (!r.text.empty() && r.text.back() != '\n') r.text += '\n';
      r.conflict_lines.push_back(out_lines + 1);
      marker(kConflictBegin);
      emit(O, ob, oe, true);
      marker(kConflictSep);
      emit(T, tb, te, true);
      marker(kConflictEnd);
    }
    pos = ge;
  }
  emit(A, pos, A.size(), false);
  return r;
}

}  // namespace ferry::migrate
