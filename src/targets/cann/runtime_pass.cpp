// Argument-level rewrites of the CUDA runtime calls whose AscendCL twins take other arguments
// (signatures: docs/targets.md#cann), the reverse capacity check, and aclInit/aclFinalize.
#include <set>
#include <string>
#include <vector>

#include "targets/cann/passes.h"

namespace ferry::targets::cann {
namespace {

using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

// The stream a rewritten call gets: the one in scope, else nullptr (the default stream) and FRY4602.
std::string stream_for(FileMigration& f, std::size_t ci, std::string_view api) {
  std::string s = visible_stream(f, ci);
  if (!s.empty()) return s;
  f.diag(Diag::CannNoStream, ci,
         std::string(api) + " gets an explicit stream on Ascend, and no aclrtStream is in scope here: "
                            "nullptr (the default stream) was passed",
         "create a stream with aclrtCreateStream(&stream) and pass it, so that the work is ordered "
         "with the kernels and copies that use it");
  return "nullptr";
}

bool already_void_pp(const FileMigration& f, const ArgRange& a) {
  const std::string t = squeezed(f, a.first, a.last);
  return t.rfind("(void**)", 0) == 0 || t.rfind("reinterpret_cast<void**>", 0) == 0 ||
         t.rfind("static_cast<void**>", 0) == 0;
}

// `name(args)` with the name at ci; false when it is not a plain call.
bool plain_call(const FileMigration& f, std::size_t ci, std::size_t& close, std::vector<ArgRange>& args) {
  if (!f.is(ci + 1, "(") || f.is_member_or_qualified(ci) || f.code(ci).in_directive) return false;
  close = f.match_bracket(ci + 1);
  if (close == npos) return false;
  args = f.call_args(ci + 1);
  return true;
}

// The declared type words of `name`, searching back from `before`: "int", "uint32_t", ...
std::string declared_type(const FileMigration& f, std::string_view name, std::size_t before) {
  for (std::size_t i = before; i-- > 1;) {
    if (f.text(i) != name || !f.is_identifier(i)) continue;
    const std::string_view next = i + 1 < f.code_size() ? f.text(i + 1) : std::string_view();
    if (next != ";" && next != "=" && next != "," && next != "{") continue;
    std::string type;
    for (std::size_t j = i; j-- > 0;) {
      const std::string_view t = f.text(j);
      if (t == "int" || t == "unsigned" || t == "signed" || t == "long" || t == "short" || t == "uint32_t" ||
          t == "int32_t" || t == "size_t" || t == "int64_t" || t == "uint64_t" || t == "auto") {
        type = std::string(t) + (type.empty() ? "" : " ") + type;
        continue;
      }
      break;
    }
    if (!type.empty()) return type;
  }
  return {};
}

void capacity_note(FileMigration& f, std::size_t ci, std::string_view api, std::string_view count) {
  f.diag(Diag::CannCapacityFromCount, ci,
         std::string(api) + "'s capacity argument was filled from the count expression (" + std::string(count) + ")",
         "if the destination buffer is larger, pass its real size: AscendCL checks count <= capacity, "
         "and equal values are always accepted");
}

}  // namespace

void runtime_pass(FileMigration& f) {
  // cudaSetDevice(id) calls per function body, for cudaDeviceReset().
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || f.excluded(ci) || f.touched(ci)) continue;
    const std::string_view name = f.text(ci);
    if (name.size() < 8 || (name.rfind("cuda", 0) != 0 && name.rfind("aclrt", 0) != 0)) continue;
    std::size_t close = npos;
    std::vector<ArgRange> args;
    if (!plain_call(f, ci, close, args)) continue;

    if ((name == "cudaMalloc" || name == "cudaMallocHost") && args.size() == 2 && !args[0].empty()) {
      const bool device = name == "cudaMalloc";
      f.replace(ci, ci, device ? "aclrtMalloc" : "aclrtMallocHost");
      if (!already_void_pp(f, args[0])) f.insert_before(args[0].first, "(void **)");
      if (device) f.insert_before(close, ", ACL_MEM_MALLOC_HUGE_FIRST");
      f.count_converted("runtime");
    } else if ((name == "cudaMemcpy" || name == "cudaMemcpyAsync") && args.size() >= 4 && args.size() <= 5) {
      const bool async = name == "cudaMemcpyAsync";
      const std::string count(f.span_text(args[2].first, args[2].last));
      f.replace(ci, ci, async ? "aclrtMemcpyAsync" : "aclrtMemcpy");
      f.insert_before(args[1].first, count + ", ");
      capacity_note(f, ci, async ? "aclrtMemcpyAsync" : "aclrtMemcpy", count);
      if (async) {
        if (args.size() == 4) f.insert_before(close, ", " + stream_for(f, ci, "aclrtMemcpyAsync"));
        else if (is_default_stream(squeezed(f, args[4].first, args[4].last)))
          f.replace(args[4].first, args[4].last, stream_for(f, ci, "aclrtMemcpyAsync"));
      }
      f.count_converted("runtime");
    } else if ((name == "cudaMemset" || name == "cudaMemsetAsync") && args.size() >= 3 && args.size() <= 4) {
      const bool async = name == "cudaMemsetAsync";
      const std::string count(f.span_text(args[2].first, args[2].last));
      f.replace(ci, ci, async ? "aclrtMemsetAsync" : "aclrtMemset");
      f.insert_before(args[1].first, count + ", ");
      capacity_note(f, ci, async ? "aclrtMemsetAsync" : "aclrtMemset", count);
      if (async) {
        if (args.size() == 3) f.insert_before(close, ", " + stream_for(f, ci, "aclrtMemsetAsync"));
        else if (is_default_stream(squeezed(f, args[3].first, args[3].last)))
          f.replace(args[3].first, args[3].last, stream_for(f, ci, "aclrtMemsetAsync"));
      }
      f.count_converted("runtime");
    } else if (name == "cudaEventRecord" && (args.size() == 1 || args.size() == 2) && !args[0].empty()) {
      f.replace(ci, ci, "aclrtRecordEvent");
      if (args.size() == 1) f.insert_before(close, ", " + stream_for(f, ci, "aclrtRecordEvent"));
      else if (is_default_stream(squeezed(f, args[1].first, args[1].last)))
        f.replace(args[1].first, args[1].last, stream_for(f, ci, "aclrtRecordEvent"));
      f.count_converted("runtime");
    } else if (name == "cudaGetDeviceCount" && args.size() == 1) {
      f.replace(ci, ci, "aclrtGetDeviceCount");
      f.count_converted("runtime");
      const std::string arg = squeezed(f, args[0].first, args[0].last);
      if (arg.size() > 1 && arg[0] == '&') {
        const std::string var = arg.substr(1);
        const std::string type = declared_type(f, var, ci);
        if (!type.empty() && type != "uint32_t" && type != "unsigned" && type != "unsigned int")
          f.diag(Diag::CannDeviceCountType, ci,
                 "aclrtGetDeviceCount(uint32_t *count) writes an unsigned 32-bit count, but '" + var +
                     "' is declared '" + type + "'",
                 "declare '" + var + "' as uint32_t (and compare it with unsigned values)");
      }
    } else if (name == "cudaDeviceReset" && args.empty()) {
      // aclrtResetDevice(deviceId) needs the id: take it from cudaSetDevice in the same function.
      const std::size_t body = enclosing_body(f, ci);
      std::set<std::string> ids;
      for (std::size_t i = body == npos ? 0 : body; i < ci; ++i)
        if (f.is(i, "cudaSetDevice") && f.is(i + 1, "(")) {
          const auto a = f.call_args(i + 1);
          if (a.size() == 1 && !a[0].empty()) ids.insert(std::string(f.span_text(a[0].first, a[0].last)));
        }
      if (body != npos && ids.size() == 1) {
        f.replace(ci, close, "aclrtResetDevice(" + *ids.begin() + ")");
        f.count_converted("runtime");
      } else {
        f.replace(ci, ci, "cudaDeviceReset");  // claimed: the rule table must not rename it to a wrong call
        f.count_unconverted("runtime");
        f.diag(Diag::CannDeviceResetUnknownId, ci,
               "cudaDeviceReset() has no argument-free AscendCL twin: aclrtResetDevice(int32_t deviceId) "
               "needs the device id, and no single cudaSetDevice(id) precedes it in this function; left unchanged",
               "call aclrtResetDevice(id) with the id passed to aclrtSetDevice");
      }
    } else if ((name == "aclrtMemcpy" || name == "aclrtMemcpyAsync" || name == "aclrtMemset" ||
                name == "aclrtMemsetAsync") &&
               args.size() >= 4) {
      // Reverse check over ACL code already in the input: capacity (arg 1) >= count (arg 3).
      const std::string cap(f.span_text(args[1].first, args[1].last));
      const std::string count(f.span_text(args[3].first, args[3].last));
      if (!provably_at_least(cap, count))
        f.diag(Diag::CannCapacityUnproven, args[1].first,
               std::string(name) + ": the capacity argument (" + cap + ") is not provably >= the count (" + count +
                   ")",
               "pass the real size of the destination buffer as the capacity; a smaller capacity makes the call "
               "fail at run time");
    }
  }
}

void entry_pass(FileMigration& f) {
  std::size_t main_open = npos, main_name = npos;
  bool has_init = false;
  std::size_t first_set_device = npos;
  int depth = 0;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (f.code(ci).in_directive) continue;
    const std::string_view t = f.text(ci);
    if (t == "{") ++depth;
    else if (t == "}") --depth;
    else if (t == "aclInit") has_init = true;
    else if (t == "cudaSetDevice" && first_set_device == npos) first_set_device = ci;
    else if (t == "main" && depth == 0 && main_open == npos && f.is(ci + 1, "(") && ci > 0 &&
             f.is_identifier(ci - 1) && !f.is_member_or_qualified(ci)) {
      const std::size_t close = f.match_bracket(ci + 1);
      if (close != npos && f.is(close + 1, "{")) {
        main_open = close + 1;
        main_name = ci;
      }
    }
  }
  if (has_init) return;
  if (main_open == npos) {
    if (first_set_device != npos && !f.excluded(first_set_device))
      f.diag(Diag::CannAclInitMissing, first_set_device,
             "AscendCL must be initialized with aclInit(nullptr) before the first aclrt call and finalized with "
             "aclFinalize() at exit, and main is not in this file",
             "add aclInit(nullptr) at the start of main and aclFinalize() before it returns");
    return;
  }
  if (f.excluded(main_name)) return;
  const std::size_t main_close = f.match_bracket(main_open);
  if (main_close == npos || main_close == main_open + 1) return;
  const std::string indent = line_indent(f, main_open + 1);
  f.insert_before(main_open + 1, "aclInit(nullptr);\n" + indent);
  bool ends_with_return = false;
  for (std::size_t ci = main_open + 1; ci < main_close; ++ci) {
    if (!f.is(ci, "return")) continue;
    const std::string_view prev = f.text(ci - 1);
    if (prev == ";" || prev == "{" || prev == "}") {
      f.insert_before(ci, "aclFinalize();\n" + line_indent(f, ci));
      std::size_t end = ci;
      while (end < main_close && !f.is(end, ";")) ++end;
      if (end + 1 == main_close) ends_with_return = true;
    } else {
      f.diag(Diag::CannAclInitMissing, ci,
             "aclFinalize() was not inserted before this return: it is the body of an if/else without braces",
             "put braces around the statement and call aclFinalize() before returning");
    }
  }
  if (!ends_with_return) {
    const std::string_view src = f.source();
    std::uint32_t b = f.code(main_close).begin;
    while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t')) --b;
    if (b == 0 || src[b - 1] == '\n') f.replace_bytes(b, b, indent + "aclFinalize();\n");
    else f.insert_before(main_close, "aclFinalize(); ");
  }
  f.diag(Diag::CannAclInitInserted, main_name,
         "aclInit(nullptr) was inserted at main's entry and aclFinalize() before its exits",
         "CUDA initializes implicitly, AscendCL does not; pass a JSON config path to aclInit if you need one");
}

}  // namespace ferry::targets::cann
