#include "analysis/facts_spool.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace ferry::analysis {

namespace {

// Unsigned integers as LEB128 varints, signed ones zigzagged first, strings as their length and
// bytes: most indices and values are small, and a file's facts pack to a fraction of their
// objects' heap.
class Writer {
 public:
  void u(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void i(long long v) {
    const auto x = static_cast<std::uint64_t>(v);
    u((x << 1) ^ (v < 0 ? ~std::uint64_t{0} : 0));
  }
  void s(std::string_view v) {
    u(v.size());
    out_.append(v);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::uint64_t u() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (at_ >= in_.size() || shift > 63) throw std::runtime_error("the wave64 planner's facts are damaged");
      const auto b = static_cast<unsigned char>(in_[at_++]);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  long long i() {
    const std::uint64_t x = u();
    return static_cast<long long>((x >> 1) ^ (~(x & 1) + 1));
  }
  std::string s() {
    const std::uint64_t n = u();
    if (n > in_.size() - at_) throw std::runtime_error("the wave64 planner's facts are damaged");
    std::string v(in_.substr(at_, n));
    at_ += n;
    return v;
  }
  void skip_s() {
    const std::uint64_t n = u();
    if (n > in_.size() - at_) throw std::runtime_error("the wave64 planner's facts are damaged");
    at_ += n;
  }
  std::size_t z() { return static_cast<std::size_t>(u()); }
  [[nodiscard]] std::size_t at() const { return at_; }

 private:
  std::string_view in_;
  std::size_t at_ = 0;
};

// An index that may be npos, as index + 1 (npos: 0).
void put_index(Writer& w, std::size_t ci) { w.u(ci == migrate::npos ? 0 : std::uint64_t{ci} + 1); }
std::size_t get_index(Reader& r) {
  const std::uint64_t v = r.u();
  return v == 0 ? migrate::npos : static_cast<std::size_t>(v - 1);
}

}  // namespace

// The pack: the head (the function count, the constants' count and names), then the constants'
// values and places, the functions, the helpers.
std::string pack_facts(const FileFacts& facts) {
  Writer w;
  w.u(facts.functions.size());
  w.u(facts.constants.size());
  for (const auto& [name, c] : facts.constants) w.s(name);
  for (const auto& [name, c] : facts.constants) {
    w.i(c.value);
    w.u(c.name_ci);
    w.u(c.first_ci);
    w.u(c.last_ci);
    w.u(c.is_macro ? 1 : 0);
  }
  for (const FunctionInfo& f : facts.functions) {
    w.s(f.name);
    w.u(f.name_ci);
    w.u(f.body_open);
    w.u(f.body_close);
    w.u((f.is_kernel ? 1u : 0u) | (f.is_device ? 2u : 0u) | (f.is_host ? 4u : 0u) | (f.launch_bounds ? 8u : 0u));
    if (f.launch_bounds) w.i(*f.launch_bounds);
    put_index(w, f.launch_bounds_ci);
    w.u(f.local_constants.size());
    for (const auto& [name, value] : f.local_constants) {
      w.s(name);
      w.i(value);
    }
    w.u(f.defs.size());
    for (const VarDef& d : f.defs) {
      w.s(d.name);
      w.u(d.at);
      w.u(d.taint);
    }
  }
  for (const std::set<std::string>* helpers : {&facts.lane_helpers, &facts.thread_helpers}) {
    w.u(helpers->size());
    for (const std::string& name : *helpers) w.s(name);
  }
  return w.take();
}

FileFacts unpack_facts(std::string_view bytes) {
  Reader r(bytes);
  FileFacts facts;
  facts.functions.resize(r.z());
  {
    std::vector<std::string> names(r.z());
    for (std::string& name : names) name = r.s();
    for (std::string& name : names) {
      ConstantInfo c;
      c.value = r.i();
      c.name_ci = r.z();
      c.first_ci = r.z();
      c.last_ci = r.z();
      c.is_macro = r.u() != 0;
      facts.constants.emplace_hint(facts.constants.end(), std::move(name), c);
    }
  }
  for (FunctionInfo& f : facts.functions) {
    f.name = r.s();
    f.name_ci = r.z();
    f.body_open = r.z();
    f.body_close = r.z();
    const std::uint64_t flags = r.u();
    f.is_kernel = flags & 1;
    f.is_device = flags & 2;
    f.is_host = flags & 4;
    if (flags & 8) f.launch_bounds = r.i();
    f.launch_bounds_ci = get_index(r);
    for (std::size_t n = r.z(); n > 0; --n) {
      std::string name = r.s();
      const long long value = r.i();
      f.local_constants.emplace_hint(f.local_constants.end(), std::move(name), value);
    }
    f.defs.resize(r.z());
    for (VarDef& d : f.defs) {
      d.name = r.s();
      d.at = r.z();
      d.taint = static_cast<unsigned>(r.u());
    }
  }
  for (std::set<std::string>* helpers : {&facts.lane_helpers, &facts.thread_helpers})
    for (std::size_t n = r.z(); n > 0; --n) helpers->emplace_hint(helpers->end(), r.s());
  return facts;
}

bool FactsHead::defines(std::string_view name) const {
  const auto it = std::lower_bound(constant_names.begin(), constant_names.end(), name,
                                   [](const std::string& a, std::string_view b) { return a < b; });
  return it != constant_names.end() && *it == name;
}

FactsHead head_of(const FileFacts& facts) {
  FactsHead head;
  head.functions = facts.functions.size();
  head.constant_names.reserve(facts.constants.size());
  for (const auto& [name, c] : facts.constants) head.constant_names.push_back(name);
  return head;
}

FactsHead unpack_head(std::string_view bytes) {
  Reader r(bytes);
  FactsHead head;
  head.functions = r.z();
  head.constant_names.resize(r.z());
  for (std::string& name : head.constant_names) name = r.s();
  return head;
}

std::size_t head_size(std::string_view pack) {
  Reader r(pack);
  r.u();
  for (std::size_t n = r.z(); n > 0; --n) r.skip_s();
  return r.at();
}

std::size_t heap_bytes(const FileFacts& facts) {
  constexpr std::size_t kNode = 32;  // a std::map/std::set node before its value
  const auto text = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
  std::size_t bytes = sizeof(FileFacts) + facts.functions.capacity() * sizeof(FunctionInfo);
  for (const FunctionInfo& f : facts.functions) {
    bytes += text(f.name) + f.defs.capacity() * sizeof(VarDef);
    for (const auto& [name, value] : f.local_constants)
      bytes += kNode + sizeof(std::pair<const std::string, long long>) + text(name);
    for (const VarDef& d : f.defs) bytes += text(d.name);
  }
  for (const auto& [name, c] : facts.constants)
    bytes += kNode + sizeof(std::pair<const std::string, ConstantInfo>) + text(name);
  for (const std::set<std::string>* helpers : {&facts.lane_helpers, &facts.thread_helpers})
    for (const std::string& name : *helpers) bytes += kNode + sizeof(std::string) + text(name);
  return bytes;
}

FactsSpool::At FactsSpool::keep(const FileFacts& facts) {
  const std::string pack = pack_facts(facts);
  return {bytes_.add(pack), head_size(pack)};
}

std::size_t FactsSpool::put(const FileFacts& facts) {
  at_.push_back(keep(facts));
  return at_.size() - 1;
}

void FactsSpool::replace(std::size_t id, const FileFacts& facts) { at_.at(id) = keep(facts); }

FileFacts FactsSpool::get(std::size_t id) const { return unpack_facts(bytes_.read(at_.at(id).span)); }

FactsHead FactsSpool::head(std::size_t id) const {
  const At& at = at_.at(id);
  return unpack_head(bytes_.read(ByteSpool::Span{at.span.offset, at.head}));
}

}  // namespace ferry::analysis
