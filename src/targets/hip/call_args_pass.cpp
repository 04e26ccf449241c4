// Calls whose arguments differ between CUDA and HIP, where the rule tables can only rename.
//
// CUDA 13 passes a cudaMemLocation where HIP (like CUDA 12) passes a device id:
//   cudaMemPrefetchAsync(p, n, loc, flags[, stream])  ->  hipMemPrefetchAsync(p, n, dev[, stream])
//   cudaMemAdvise(p, n, advice, loc)                  ->  hipMemAdvise(p, n, advice, dev)
// The device id comes from the location as written: a braced `{type, id}` (or `{.type = ...,
// .id = ...}`) gives `id`, or hipCpuDeviceId for a host type; a variable declared in the file as a
// cudaMemLocation (or a member `a.b.v` so declared) gives
// `(v.type == hipMemLocationTypeDevice ? v.id : hipCpuDeviceId)`. The
// flags (0 in CUDA 13) are dropped. FRY4104 notes each rewrite; a location Ferry cannot read (a
// call, a member) keeps the call as written with FRY4105. The CUDA 12 forms (a device id) are
// left to the tables.
//
// HIP overloads __ffs for int and unsigned int and __ffsll for long long and unsigned long long;
// CUDA has one of each, so CUDA code passes a `long`, `size_t` or `uint64_t` and lets it convert.
// In HIP that call is ambiguous. An argument that is a name (`m`, `m[i]`, `*m`) the file declares
// with such a type gets the cast CUDA's conversion did: `__ffs((unsigned int)(m))`,
// `__ffsll((unsigned long long)(m))`. Runs after the warp pass, which turns `__ffs` of a 64-bit
// ballot into `__ffsll` (those calls are left alone).
//
// CUDA's runtime API has C++ default arguments and overloads that HIP's C declarations lack:
// `cudaStreamWaitEvent(s, e)` (flags = 0) and `cudaMalloc3DArray(&a, &desc, extent)` (flags = 0)
// get the `0` written out; `cudaEventCreate(&e, flags)` (CUDA's C++ overload) becomes
// `hipEventCreateWithFlags(&e, flags)`. Calls written in full are left to the tables.
//
// CUDA 13 gave the graph calls that take or return dependencies an edge-data argument
// (`const cudaGraphEdgeData*`, or `**` for an output); HIP has no edge data and takes the CUDA 12
// form. In CUDA 13's arity (kEdgeDataCalls) a null edge-data argument (0, NULL, nullptr: default
// edges, or edge data not wanted) is dropped, FRY4112; any other is left with FRY4113:
//   cudaStreamGetCaptureInfo(s, &st, NULL, &g, &deps, NULL, &n)  ->  hipStreamGetCaptureInfo_v2(s, &st, NULL, &g,
//   &deps, &n) cudaGraphAddDependencies(g, from, to, NULL, n)               ->  hipGraphAddDependencies(g, from, to, n)
// cudaStreamGetCaptureInfo's CUDA 12 form (2 to 6 arguments, the last four defaulted) is
// hipStreamGetCaptureInfo_v2's; the tables' hipStreamGetCaptureInfo is CUDA 11's 3-argument
// form, kept for 3 arguments. A 6-argument call is read as CUDA 12's (numDependencies last), and
// cudaStreamUpdateCaptureDependencies with 4 arguments is left to the tables (CUDA 12's flags or
// CUDA 13's edge data: the types would tell, the tokens do not).
//
// The GL interop registrations take a register flag; CUDA code often passes a map flag of the same
// value (`cudaGraphicsMapFlagsWriteDiscard`), which becomes HIP's register flag there.
//
// NVRTC takes its option strings as `const char* const*`, so CUDA code passes a `char**` (or a
// `char* opts[]`); hiprtcCompileProgram takes `const char**`, which neither converts to. The
// argument gets `const_cast<const char**>(...)`, a compile error (not a silent reinterpretation)
// for anything that is not an array of strings; a name the file declares `const char* n[]` or
// `const char** n` is left as it is.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "rewrite/roundtrip_record.h"
#include "targets/hip/hip_provided.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using migrate::ArgRange;
using migrate::FileMigration;

// Text of code tokens [first, last] with each identifier renamed as the rules would.
std::string renamed_span(const FileMigration& file, std::size_t first, std::size_t last) {
  std::string out;
  for (std::size_t i = first; i <= last; ++i) {
    if (i > first) {
      const std::uint32_t gap_begin = file.code(i - 1).end, gap_end = file.code(i).begin;
      out += file.source().substr(gap_begin, gap_end - gap_begin);
    }
    if (file.is_identifier(i) && !file.is_member_or_qualified(i))
      out += renamed_by(file.target().rules(), file.text(i));
    else out += file.text(i);
  }
  return out;
}

// Names declared in the file with the type cudaMemLocation (`cudaMemLocation loc = ...`,
// `cudaMemLocation loc;`, members, parameters, functions returning one).
std::unordered_set<std::string_view> location_variables(const FileMigration& file) {
  std::unordered_set<std::string_view> vars;
  for (const std::size_t ci : file.occurrences("cudaMemLocation")) {
    if (ci + 1 >= file.code_size()) continue;
    std::size_t n = ci + 1;
    while (n < file.code_size() && (file.is(n, "const") || file.is(n, "&"))) ++n;
    if (n < file.code_size() && file.is_identifier(n)) vars.insert(file.text(n));
  }
  return vars;
}

bool mentions(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

// The device id a location argument stands for, or "" when Ferry cannot tell.
std::string device_of(const FileMigration& file, const ArgRange& a, const std::unordered_set<std::string_view>& vars) {
  std::size_t first = a.first, last = a.last;
  // `cudaMemLocation{...}` / `(cudaMemLocation){...}`: the braces.
  if (file.is(first, "(") && file.is(first + 1, "cudaMemLocation") && file.is(first + 2, ")")) first += 3;
  if (file.is(first, "cudaMemLocation") && file.is(first + 1, "{")) ++first;
  if (file.is(first, "{") && file.match_bracket(first) == last) {
    const std::vector<ArgRange> fields = file.call_args(first);
    if (fields.size() != 2 || fields[0].empty() || fields[1].empty()) return {};
    ArgRange type = fields[0], id = fields[1];
    // Designated: `.type = X, .id = Y` in either order.
    auto designator = [&](ArgRange& f, std::string_view& name) {
      if (file.is(f.first, ".") && file.is_identifier(f.first + 1) && file.is(f.first + 2, "=")) {
        name = file.text(f.first + 1);
        f.first += 3;
      }
    };
    std::string_view n0, n1;
    designator(type, n0);
    designator(id, n1);
    if (n0 == "id" && n1 == "type") std::swap(type, id);
    const std::string type_text(file.span_text(type.first, type.last));
    if (mentions(type_text, "Host")) return "hipCpuDeviceId";
    if (!mentions(type_text, "Device")) return {};
    return renamed_span(file, id.first, id.last);
  }
  // A variable or member declared as a cudaMemLocation (`loc`, `cfg.loc`, `p->loc`): read twice,
  // so only a chain of names, which has no side effects.
  if (file.is_identifier(last) && vars.contains(file.text(last))) {
    for (std::size_t i = first; i <= last; ++i)
      if (!file.is_identifier(i) && !file.is(i, ".") && !file.is(i, "->")) return {};
    const std::string v = renamed_span(file, first, last);
    return "(" + v + ".type == hipMemLocationTypeDevice ? " + v + ".id : hipCpuDeviceId)";
  }
  return {};
}

// True when the argument is visibly a cudaMemLocation: it names the type, is braced, or ends in
// a name (a variable, member or function) the file declares with that type.
bool is_location(const FileMigration& file, const ArgRange& a, const std::unordered_set<std::string_view>& vars) {
  if (mentions(file.span_text(a.first, a.last), "cudaMemLocation") || file.is(a.first, "{")) return true;
  for (std::size_t i = a.first; i <= a.last; ++i)
    if (file.is_identifier(i) && vars.contains(file.text(i)) && (i == a.last || file.is(i + 1, "("))) return true;
  return false;
}

bool is_type_word(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "long",     "unsigned", "signed",    "int",      "short",     "char",     "size_t",  "ssize_t",
      "uint64_t", "int64_t",  "uintptr_t", "intptr_t", "ptrdiff_t", "uint32_t", "int32_t", "uint16_t",
      "int16_t",  "uint8_t",  "int8_t",    "const",    "volatile",  "std",      "::"};
  for (std::string_view k : kWords)
    if (w == k) return true;
  return false;
}

// 0: not 64-bit (or unknown); 1: 64-bit `long` family (long, unsigned long, size_t, uint64_t,
// int64_t, ... on LP64 Linux); 2: long long / unsigned long long.
int width64(std::string_view words) {
  std::size_t longs = 0;
  for (std::size_t at = words.find("long"); at != std::string_view::npos; at = words.find("long", at + 4)) ++longs;
  if (longs >= 2) return 2;
  if (longs == 1) return 1;
  for (std::string_view t : {"size_t", "uint64_t", "int64_t", "uintptr_t", "intptr_t", "ptrdiff_t"})
    if (words.find(t) != std::string_view::npos) return 1;
  return 0;
}

// Integer type words of each declaration of each name the file declares (`const uint64_t* masks`
// -> "const uint64_t"), in source order with the declaring token: a use reads the nearest one
// before it, so a parameter `unsigned int m` is not taken for another function's 64-bit `m`.
struct IntegerDeclaration {
  std::size_t at;
  std::string words;
};
// The integer declarations of `name` (read from its occurrences).
std::vector<IntegerDeclaration> integer_declarations(const FileMigration& file, std::string_view name) {
  std::vector<IntegerDeclaration> out;
  for (const std::size_t ci : file.occurrences(name)) {
    if (ci < 1 || ci + 1 >= file.code_size()) continue;
    if (!file.is_identifier(ci) || file.code(ci).in_directive || is_type_word(file.text(ci))) continue;
    if (!(file.is(ci + 1, "=") || file.is(ci + 1, ";") || file.is(ci + 1, ",") || file.is(ci + 1, ")") ||
          file.is(ci + 1, "[") || file.is(ci + 1, "{")))
      continue;
    std::size_t k = ci;
    while (k > 0 && (file.is(k - 1, "*") || file.is(k - 1, "&") || file.is(k - 1, "__restrict__") ||
                     file.is(k - 1, "__restrict")))
      --k;
    std::size_t first = k;
    while (first > 0 && is_type_word(file.text(first - 1)) && !file.code(first - 1).in_directive) --first;
    if (first == k) continue;
    std::string words;
    for (std::size_t i = first; i < k; ++i) (words += file.text(i)) += ' ';
    out.push_back({ci, std::move(words)});
  }
  return out;
}

// The name an argument reads (`m`, `m[i]`, `*m`), or npos.
std::size_t argument_name(const FileMigration& file, const ArgRange& a) {
  if (a.empty()) return migrate::npos;
  std::size_t first = a.first;
  if (file.is(first, "*")) ++first;
  if (first > a.last || !file.is_identifier(first)) return migrate::npos;
  if (first == a.last) return first;
  if (file.is(first + 1, "[") && file.match_bracket(first + 1) == a.last) return first;
  return migrate::npos;
}

void ffs_args(FileMigration& file) {
  std::unordered_map<std::string_view, std::vector<IntegerDeclaration>> decls;  // by name, when first asked
  for (const std::size_t ci : file.occurrences({"__ffs", "__ffsll"})) {
    const bool ffs = file.is(ci, "__ffs"), ffsll = !ffs && file.is(ci, "__ffsll");
    if ((!ffs && !ffsll) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci) ||
        file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    if (args.size() != 1) continue;
    const std::size_t name = argument_name(file, args[0]);
    if (name == migrate::npos) continue;
    auto it = decls.find(file.text(name));
    if (it == decls.end()) it = decls.emplace(file.text(name), integer_declarations(file, file.text(name))).first;
    if (it->second.empty()) continue;
    const IntegerDeclaration* nearest = nullptr;
    for (const IntegerDeclaration& d : it->second)
      if (d.at < name) nearest = &d;
    if (!nearest) continue;
    const int w = width64(nearest->words);
    if (w == 0 || (ffsll && w == 2)) continue;
    const std::string cast = ffs ? "(unsigned int)(" : "(unsigned long long)(";
    if (file.edits().overlaps(file.code(args[0].first).begin, file.code(args[0].last).end)) continue;
    file.replace(args[0].first, args[0].last,
                 rewrite::record::span(cast + renamed_span(file, args[0].first, args[0].last) + ")",
                                       file.span_text(args[0].first, args[0].last)));
  }
}

// CUDA C++ API calls that omit an argument HIP requires, or use an overload HIP lacks.
void default_args(FileMigration& file) {
  struct Default {
    std::string_view cuda;
    std::size_t short_arity;  // the arity CUDA allows and HIP does not
    std::string_view hip;     // the HIP call
    std::string_view append;  // written after the last argument ("" for none)
  };
  static constexpr Default kDefaults[] = {
      {"cudaStreamWaitEvent", 2, "hipStreamWaitEvent", "0"},
      {"cudaMalloc3DArray", 3, "hipMalloc3DArray", "0"},
      {"cudaEventCreate", 2, "hipEventCreateWithFlags", ""},
  };
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const Default& k : kDefaults) names.push_back(k.cuda);
    return names;
  }();
  for (const std::size_t ci : file.occurrences(kNames)) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci) ||
        file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const Default* d = nullptr;
    for (const Default& k : kDefaults)
      if (file.is(ci, k.cuda)) d = &k;
    if (!d) continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    if (args.size() != d->short_arity || args.back().empty()) continue;
    const std::size_t close = file.match_bracket(ci + 1);
    // Recorded for the way back (rewrite/roundtrip_record.h): the CUDA name where HIP's call is
    // another (`hipEventCreateWithFlags /* ferry-cuda: cudaEventCreate */`, spelling), the argument
    // written out as added (`, 0 /* ferry-cuda: (none) */`).
    const std::string hip =
        d->append.empty() ? std::string(d->hip) + " " + rewrite::record::make(d->cuda) : std::string(d->hip);
    if (close == migrate::npos || !file.replace(ci, ci, hip)) continue;
    if (!d->append.empty())
      file.edits().insert(file.code(args.back().last).end,
                          ", " + std::string(d->append) + " " + std::string(rewrite::record::kAdded));
    file.count_converted("runtime");
  }
}

// CUDA code passes a map flag where the GL interop registration takes a register flag:
// `cudaGraphicsGLRegisterBuffer(&r, vbo, cudaGraphicsMapFlagsWriteDiscard)` (cuda-samples: 30
// calls). CUDA's two enums have the same values for these three (driver_types.h: None 0,
// ReadOnly 1, WriteDiscard 2) and C converts; HIP has no map-flag enum, so inside the flags
// argument the enumerator becomes HIP's register flag of that value. Elsewhere (the map-flag
// calls, which HIP lacks) the tables report it unsupported.
void register_flags_args(FileMigration& file) {
  struct Call {
    std::string_view cuda;
    std::size_t flags;  // the flags argument's index
  };
  static constexpr Call kCalls[] = {{"cudaGraphicsGLRegisterBuffer", 2}, {"cudaGraphicsGLRegisterImage", 3}};
  static constexpr std::pair<std::string_view, std::string_view> kFlags[] = {
      {"cudaGraphicsMapFlagsNone", "hipGraphicsRegisterFlagsNone"},
      {"cudaGraphicsMapFlagsReadOnly", "hipGraphicsRegisterFlagsReadOnly"},
      {"cudaGraphicsMapFlagsWriteDiscard", "hipGraphicsRegisterFlagsWriteDiscard"},
  };
  for (const std::size_t ci : file.occurrences({kCalls[0].cuda, kCalls[1].cuda})) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.excluded(ci) || file.is_member_or_qualified(ci) ||
        file.code(ci).in_directive)
      continue;
    const Call* c = nullptr;
    for (const Call& k : kCalls)
      if (file.is(ci, k.cuda)) c = &k;
    if (!c) continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    if (args.size() != c->flags + 1 || args[c->flags].empty()) continue;
    for (std::size_t t = args[c->flags].first; t <= args[c->flags].last; ++t) {
      if (file.excluded(t) || file.touched(t) || file.is_member_or_qualified(t)) continue;
      for (const auto& [cuda, hip] : kFlags)
        // Recorded (rewrite/roundtrip_record.h, spelling): the way back gives the map flag as written.
        if (file.is(t, cuda) && file.replace(t, t, std::string(hip) + " " + rewrite::record::make(cuda)))
          file.count_converted("runtime");
    }
  }
}

// An argument that is a null constant on its own: 0, NULL or nullptr.
bool null_constant(const FileMigration& file, const ArgRange& a) {
  return a.first == a.last && (file.is(a.first, "NULL") || file.is(a.first, "nullptr") || file.is(a.first, "0"));
}

// Variables the file declares `CUctxCreateParams v = {};` or `CUctxCreateParams v{};`.
std::unordered_set<std::string_view> empty_ctx_params(const FileMigration& file) {
  std::unordered_set<std::string_view> out;
  for (const std::size_t ci : file.occurrences("CUctxCreateParams")) {
    if (ci + 4 >= file.code_size() || !file.is_identifier(ci + 1)) continue;
    const std::size_t b = file.is(ci + 2, "=") ? ci + 3 : ci + 2;
    if (b + 2 < file.code_size() && file.is(b, "{") && file.is(b + 1, "}") && file.is(b + 2, ";"))
      out.insert(file.text(ci + 1));
  }
  return out;
}

// Drops the argument and comma at bytes [from, to), recorded where they were
// (rewrite/roundtrip_record.h, argument form: `f(a, /* ferry-cuda: b, */ c)`) so that the way back
// puts them back as written; the blanks after the comma stay.
void drop_argument(FileMigration& file, std::uint32_t from, std::uint32_t to) {
  const std::string_view dropped = file.source().substr(from, to - from);
  const std::size_t comma = dropped.find_last_not_of(" \t\r\n");
  const std::string_view kept = dropped.substr(0, comma + 1);
  if (comma != std::string_view::npos && kept.ends_with(',') && rewrite::record::recordable(kept))
    file.replace_bytes(from, to, rewrite::record::make(kept) + std::string(dropped.substr(comma + 1)));
  else file.replace_bytes(from, to, "");
}

// cuCtxCreate(&ctx, params, flags, dev) (CUDA 13) -> hipCtxCreate(&ctx, flags, dev).
void ctx_create_args(FileMigration& file) {
  std::unordered_set<std::string_view> empty;
  bool known = false;
  for (const std::size_t ci : file.occurrences({"cuCtxCreate", "cuCtxCreate_v4"})) {
    if (!(file.is(ci, "cuCtxCreate") || file.is(ci, "cuCtxCreate_v4")) || !file.is(ci + 1, "(") || file.excluded(ci) ||
        file.touched(ci) || file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    if (args.size() != 4 || args[1].empty() || args[2].empty()) continue;
    const ArgRange& p = args[1];
    bool none = null_constant(file, p);
    if (!none && file.is(p.first, "&") && p.last == p.first + 1 && file.is_identifier(p.last)) {
      if (!known) {
        empty = empty_ctx_params(file);
        known = true;
      }
      none = empty.contains(file.text(p.last));
    }
    if (!none) continue;
    const std::uint32_t from = file.code(p.first).begin, to = file.code(args[2].first).begin;
    if (file.edits().overlaps(from, to) || !file.replace(ci, ci, "hipCtxCreate")) continue;
    // Recorded where it was (rewrite/roundtrip_record.h, argument): `hipCtxCreate(&c, /* ferry-cuda:
    // &params, */ 0, dev)`, so that the way back gives CUDA 13's four arguments as written.
    drop_argument(file, from, to);
    file.count_converted("driver");
    file.diag(Diag::CtxCreateParamsDropped, ci,
              "'" + std::string(file.text(ci)) +
                  "' in CUDA 13's form: its empty CUctxCreateParams argument was dropped, as hipCtxCreate "
                  "takes (ctx, flags, device)",
              "nothing to do; HIP has no execution-affinity or CIG context parameters");
  }
}

// cuOccupancyMaxPotentialBlockSize(&minGrid, &block, func, b2d, dynSmem, limit[, flags]) ->
// hipModuleOccupancyMaxPotentialBlockSize(&minGrid, &block, func, dynSmem, limit[, flags]):
// HIP has no block-size-to-shared-memory callback (b2d). Without one (a null constant) CUDA uses
// dynSmem for every block size, which is what HIP computes, so the argument is dropped. A real
// callback has no HIP counterpart: FRY1001 at the call.
void occupancy_args(FileMigration& file) {
  for (const std::size_t ci :
       file.occurrences({"cuOccupancyMaxPotentialBlockSize", "cuOccupancyMaxPotentialBlockSizeWithFlags"})) {
    const bool plain = file.is(ci, "cuOccupancyMaxPotentialBlockSize");
    if ((!plain && !file.is(ci, "cuOccupancyMaxPotentialBlockSizeWithFlags")) || !file.is(ci + 1, "(") ||
        file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    if (args.size() != (plain ? 6u : 7u) || args[3].empty() || args[4].empty()) continue;
    const ArgRange& b2d = args[3];
    const bool none = null_constant(file, b2d);
    if (!none) {
      file.diag(Diag::ApiUnsupported, ci,
                "'" + std::string(file.text(ci)) +
                    "' with a block-size-to-dynamic-shared-memory callback: HIP's "
                    "hipModuleOccupancyMaxPotentialBlockSize takes one shared memory size for every block size",
                "pass the shared memory size of the block size you launch with (call the callback yourself) "
                "and drop the callback argument");
      continue;
    }
    const std::uint32_t from = file.code(b2d.first).begin, to = file.code(args[4].first).begin;
    if (file.edits().overlaps(from, to)) continue;
    file.replace_bytes(from, to, "");
  }
}

// CUDA 13's calls with an edge-data argument.
struct EdgeDataCall {
  std::string_view cuda;
  std::size_t arity;         // CUDA 13's argument count (every argument written)
  std::size_t edge;          // the edge-data argument
  std::string_view hip;      // the HIP call, CUDA 12's form
  std::string_view release;  // the CUDA name whose rule says which HIP release has `hip`
};

constexpr EdgeDataCall kEdgeDataCalls[] = {
    {"cudaStreamGetCaptureInfo", 7, 5, "hipStreamGetCaptureInfo_v2", "cudaStreamGetCaptureInfo_v2"},
    {"cudaStreamGetCaptureInfo_v3", 7, 5, "hipStreamGetCaptureInfo_v2", "cudaStreamGetCaptureInfo_v2"},
    {"cudaStreamUpdateCaptureDependencies", 5, 2, "hipStreamUpdateCaptureDependencies",
     "cudaStreamUpdateCaptureDependencies"},
    {"cudaStreamUpdateCaptureDependencies_v2", 5, 2, "hipStreamUpdateCaptureDependencies",
     "cudaStreamUpdateCaptureDependencies"},
    {"cudaGraphAddDependencies", 5, 3, "hipGraphAddDependencies", "cudaGraphAddDependencies"},
    {"cudaGraphAddDependencies_v2", 5, 3, "hipGraphAddDependencies", "cudaGraphAddDependencies"},
    {"cudaGraphRemoveDependencies", 5, 3, "hipGraphRemoveDependencies", "cudaGraphRemoveDependencies"},
    {"cudaGraphRemoveDependencies_v2", 5, 3, "hipGraphRemoveDependencies", "cudaGraphRemoveDependencies"},
    {"cudaGraphGetEdges", 5, 3, "hipGraphGetEdges", "cudaGraphGetEdges"},
    {"cudaGraphGetEdges_v2", 5, 3, "hipGraphGetEdges", "cudaGraphGetEdges"},
    {"cudaGraphNodeGetDependencies", 4, 2, "hipGraphNodeGetDependencies", "cudaGraphNodeGetDependencies"},
    {"cudaGraphNodeGetDependencies_v2", 4, 2, "hipGraphNodeGetDependencies", "cudaGraphNodeGetDependencies"},
    {"cudaGraphNodeGetDependentNodes", 4, 2, "hipGraphNodeGetDependentNodes", "cudaGraphNodeGetDependentNodes"},
    {"cudaGraphNodeGetDependentNodes_v2", 4, 2, "hipGraphNodeGetDependentNodes", "cudaGraphNodeGetDependentNodes"},
};

// Whether the target release has what the rule of `cuda` maps it to.
bool release_has(const FileMigration& file, std::string_view cuda) {
  const rules::Rule* r = file.target().rules().find_identifier(cuda);
  return r && r->has_replacement() && r->availability == rules::Availability::Available;
}

void edge_data_args(FileMigration& file) {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const EdgeDataCall& k : kEdgeDataCalls) names.push_back(k.cuda);
    return names;
  }();
  for (const std::size_t ci : file.occurrences(kNames)) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci) ||
        file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const EdgeDataCall* d = nullptr;
    for (const EdgeDataCall& k : kEdgeDataCalls)
      if (file.is(ci, k.cuda)) d = &k;
    if (!d) continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    const bool capture_info = d->cuda == "cudaStreamGetCaptureInfo";
    if (args.size() != d->arity) {
      // CUDA 12's cudaStreamGetCaptureInfo: 2, 4, 5 or 6 arguments, HIP's _v2.
      // recorded (rewrite/roundtrip_record.h, spelling): the way back writes CUDA 13's form
      if (capture_info && args.size() >= 2 && args.size() <= 6 && args.size() != 3 && !args.back().empty() &&
          release_has(file, d->release) &&
          file.replace(ci, ci, std::string(d->hip) + " " + rewrite::record::make(file.text(ci))))
        file.count_converted("graph");
      continue;
    }
    const ArgRange& e = args[d->edge];
    if (e.empty() || !release_has(file, d->release)) continue;
    if (!null_constant(file, e)) {
      file.count_unconverted("graph");
      file.diag(Diag::EdgeDataNotConverted, ci,
                "'" + std::string(file.text(ci)) + "' is written in CUDA 13's form with edge data (argument " +
                    std::to_string(d->edge + 1) + ", '" + std::string(file.span_text(e.first, e.last)) + "'); HIP's " +
                    std::string(d->hip) + " has no edge data",
                "drop the edge-data argument when every edge is a default one (HIP's graphs have only those); "
                "otherwise restructure the graph without edge types or ports");
      continue;
    }
    // The argument and the comma after it (every edge-data argument has one after it), recorded
    // where it was (rewrite/roundtrip_record.h, argument): `&deps, /* ferry-cuda: NULL, */ &n`.
    const std::uint32_t from = file.code(e.first).begin, to = file.code(args[d->edge + 1].first).begin;
    if (file.edits().overlaps(from, to) || !file.replace(ci, ci, std::string(d->hip))) continue;
    drop_argument(file, from, to);
    file.count_converted("graph");
    file.diag(Diag::EdgeDataDropped, ci,
              "'" + std::string(file.text(ci)) + "' in CUDA 13's form: its null edge-data argument was dropped, as " +
                  std::string(d->hip) + " takes CUDA 12's form",
              "nothing to do; a null edge-data argument means default edges, the only ones HIP's graphs have");
  }
}

}  // namespace

// Whether the file declares `name` as `const char* name[...]` or `const char** name`.
bool declared_const_strings(const FileMigration& file, std::string_view name) {
  for (const std::size_t ci : file.occurrences("const")) {  // once per call: not every token
    if (ci + 3 >= file.code_size()) break;
    if (!file.is(ci + 1, "char") || !file.is(ci + 2, "*")) continue;
    if (file.is(ci + 3, name) && file.is(ci + 4, "[")) return true;
    if (file.is(ci + 3, "*") && file.is(ci + 4, name)) return true;
  }
  return false;
}

// nvrtcCompileProgram(prog, n, options): the options' constness HIP's declaration lacks.
void rtc_option_args(FileMigration& file) {
  for (const std::size_t ci : file.occurrences("nvrtcCompileProgram")) {
    if (!file.is(ci, "nvrtcCompileProgram") || !file.is(ci + 1, "(") || file.excluded(ci) ||
        file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    if (args.size() != 3 || args[2].empty()) continue;
    const ArgRange& o = args[2];
    if (null_constant(file, o)) continue;                                   // no options
    if (file.is(o.first, "const_cast") || file.is(o.first, "(")) continue;  // a cast (or parenthesised) as written
    if (o.first == o.last && file.is_identifier(o.first) && declared_const_strings(file, file.text(o.first)))
      continue;  // `const char* opts[]` or `const char** opts`: already what HIP takes
    bool touched = false;
    for (std::size_t k = o.first; k <= o.last; ++k) touched = touched || file.touched(k) || file.excluded(k);
    if (touched) continue;
    // Recorded (rewrite/roundtrip_record.h, span): the way back drops the cast.
    file.replace(o.first, o.last,
                 rewrite::record::span("const_cast<const char**>(" + renamed_span(file, o.first, o.last) + ")",
                                       file.span_text(o.first, o.last)));
  }
}

void call_args_pass(FileMigration& file) {
  ffs_args(file);
  default_args(file);
  register_flags_args(file);
  rtc_option_args(file);
  ctx_create_args(file);
  occupancy_args(file);
  edge_data_args(file);
  std::unordered_set<std::string_view> vars;
  bool vars_known = false;
  for (const std::size_t ci : file.occurrences({"cudaMemPrefetchAsync", "cudaMemAdvise"})) {
    const bool prefetch = file.is(ci, "cudaMemPrefetchAsync");
    const bool advise = !prefetch && file.is(ci, "cudaMemAdvise");
    if ((!prefetch && !advise) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci) ||
        file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    if (!vars_known) {
      vars = location_variables(file);
      vars_known = true;
    }
    const std::vector<ArgRange> args = file.call_args(ci + 1);
    // The location: prefetch's third argument when there are 4 or 5 (CUDA 12 has 3 or 4, the
    // 4th a stream: the location form shows in its type), advise's fourth.
    const std::size_t loc = prefetch ? 2 : 3;
    if (args.size() <= loc || args[loc].empty()) continue;
    const bool cuda13_arity = prefetch && args.size() == 5;
    const std::string dev = device_of(file, args[loc], vars);
    if (dev.empty()) {
      // A device id (CUDA 12 form) is left to the tables; a location we cannot read is reported.
      if (cuda13_arity || is_location(file, args[loc], vars))
        file.diag(Diag::MemLocationNotConverted, ci,
                  "'" + std::string(file.text(ci)) +
                      "' is written in CUDA 13's form (a cudaMemLocation); "
                      "HIP takes a device id, and Ferry cannot read this location",
                  "pass the device id (or hipCpuDeviceId for host memory) in place of the location" +
                      std::string(prefetch ? " and drop the flags argument" : ""));
      continue;
    }
    const std::string name = prefetch ? "hipMemPrefetchAsync" : "hipMemAdvise";
    // location (and, for prefetch, the flags after it) -> device; a stream stays last.
    const std::size_t to = prefetch && args.size() >= 4 ? 3 : loc;
    if (file.edits().overlaps(file.code(args[loc].first).begin, file.code(args[to].last).end) ||
        !file.replace(ci, ci, name))
      continue;
    // Recorded (rewrite/roundtrip_record.h, span): `((loc.type == hipMemLocationTypeDevice ? loc.id :
    // hipCpuDeviceId)) /* ferry-cuda: loc, 0 */`, so that the way back gives CUDA 13's arguments.
    file.replace(args[loc].first, args[to].last,
                 rewrite::record::span(dev, file.span_text(args[loc].first, args[to].last)));
    file.count_converted("runtime");
    file.diag(Diag::MemLocationConverted, ci,
              "'" + std::string(file.text(ci)) + "' in CUDA 13's form: the cudaMemLocation became the device id '" +
                  dev + "'" + (prefetch && args.size() >= 4 ? " and the flags argument was dropped" : ""),
              "HIP's " + name + " takes a device id (hipCpuDeviceId for host memory), as CUDA 12 did");
  }
}

}  // namespace ferry::targets::hip
