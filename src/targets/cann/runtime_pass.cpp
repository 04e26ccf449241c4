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

// The stream a rewritten call gets for CUDA's default stream (named as 0/nullptr or left out): the
// one in scope (FRY4610 says so), else nullptr, AscendCL's default stream, and FRY4602.
std::string stream_for(FileMigration& f, std::size_t ci, std::string_view api) {
  std::string s = visible_stream(f, ci);
  if (!s.empty()) {
    f.diag(Diag::CannDefaultStreamReplaced, ci,
           std::string(api) + " was on CUDA's default stream and now runs on '" + s +
               "', the stream in scope: it is ordered with the work on '" + s +
               "' only, no longer with every blocking stream",
           "if it must also wait for work on other streams, record an event there and wait for it "
           "(aclrtStreamWaitEvent), or synchronize them first");
    return s;
  }
  f.diag(Diag::CannNoStream, ci,
         std::string(api) +
             " gets an explicit stream on Ascend, and no aclrtStream is in scope here: "
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

CallParam in(int src, std::string name) { return CallParam{src, {}, false, {}, std::move(name)}; }
CallParam out(int src, std::string pointee, std::string name) {
  return CallParam{src, {}, true, std::move(pointee), std::move(name)};
}
CallParam lit(std::string text) { return CallParam{-1, std::move(text), false, {}, {}}; }

// CUDA runtime calls that differ from their AscendCL twin only in parameter types or order; the
// header signatures are in docs/targets.md#cann.
const std::vector<std::pair<std::string_view, CallSpec>>& typed_calls() {
  static const std::vector<std::pair<std::string_view, CallSpec>> kCalls = {
      {"cudaGetDeviceCount", {"aclrtGetDeviceCount", "aclError", "ACL_SUCCESS", {out(0, "uint32_t", "count")}}},
      {"cudaGetDevice", {"aclrtGetDevice", "aclError", "ACL_SUCCESS", {out(0, "int32_t", "deviceId")}}},
      {"cudaMemGetInfo",
       {"aclrtGetMemInfo",
        "aclError",
        "ACL_SUCCESS",
        {lit("ACL_HBM_MEM"), out(0, "size_t", "free"), out(1, "size_t", "total")}}},
      {"cudaEventElapsedTime",
       {"aclrtEventElapsedTime",
        "aclError",
        "ACL_SUCCESS",
        {out(0, "float", "ms"), in(1, "startEvent"), in(2, "endEvent")}}},
      {"cudaDeviceCanAccessPeer",
       {"aclrtDeviceCanAccessPeer",
        "aclError",
        "ACL_SUCCESS",
        {out(0, "int32_t", "canAccessPeer"), in(1, "deviceId"), in(2, "peerDeviceId")}}},
      {"cudaDeviceGetStreamPriorityRange",
       {"aclrtDeviceGetStreamPriorityRange",
        "aclError",
        "ACL_SUCCESS",
        {out(0, "int32_t", "leastPriority"), out(1, "int32_t", "greatestPriority")}}},
      {"cudaDeviceGetAttribute",
       {"aclrtGetDeviceInfo",
        "aclError",
        "ACL_SUCCESS",
        {in(2, "deviceId"), in(1, "attr"), out(0, "int64_t", "value")}}},
  };
  return kCalls;
}

const CallSpec* typed_call(std::string_view name) {
  for (const auto& [from, spec] : typed_calls())
    if (from == name) return &spec;
  return nullptr;
}

// cudaEventCreateWithFlags' flags as an AscendCL flag expression. CUDA events time and synchronize
// by default; AscendCL events do what their flags say (ACL_EVENT_SYNC: cross-stream waits,
// ACL_EVENT_TIME_LINE: timestamps for aclrtEventElapsedTime).
struct EventFlags {
  bool literal = true;  // every token is a known cudaEvent* flag, 0, | or a parenthesis
  bool timing = true, blocking = false, interprocess = false;
};
EventFlags read_event_flags(const FileMigration& f, const ArgRange& a) {
  EventFlags e;
  for (std::size_t i = a.first; i <= a.last; ++i) {
    const std::string_view t = f.text(i);
    if (t == "|" || t == "(" || t == ")" || t == "0" || t == "cudaEventDefault") continue;
    if (t == "cudaEventDisableTiming") e.timing = false;
    else if (t == "cudaEventBlockingSync") e.blocking = true;
    else if (t == "cudaEventInterprocess") e.interprocess = true;
    else e.literal = false;
  }
  return e;
}

// The table's FRY4001 for a name the pass claimed (the tables skip claimed tokens).
void changed_note(FileMigration& f, std::size_t ci, std::string_view name, std::string_view to) {
  const rules::Rule* r = f.target().rules().find_identifier(name);
  if (!r || r->status != rules::Status::Changed) return;
  f.diag(Diag::ChangedSemantics, ci,
         "'" + std::string(r->from) + "' → '" + std::string(to) + "' behaves differently on " +
             std::string(f.target().name()),
         std::string(r->note));
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
    } else if (name == "cudaDeviceGetAttribute" && args.size() == 3) {
      // Only attributes with an AscendCL query (rules/cuda2cann/runtime.tsv, family "runtime").
      const rules::Rule* r =
          args[1].first == args[1].last ? f.target().rules().find_identifier(f.text(args[1].first)) : nullptr;
      if (r && r->has_replacement() && r->to.rfind("ACL_DEV_ATTR_", 0) == 0) {
        if (adapt_call(f, ci, close, args, *typed_call(name))) f.count_converted("runtime");
      } else {
        f.replace(ci, ci, "cudaDeviceGetAttribute");  // claimed: a rename would not compile
        f.count_unconverted("runtime");
        f.diag(Diag::CannDeviceAttributeUnsupported, ci,
               "cudaDeviceGetAttribute(" + squeezed(f, args[1].first, args[1].last) +
                   ") has no AscendCL query (aclrtGetDeviceInfo knows core counts, warp size, memory and L2 "
                   "sizes); left unchanged",
               "query the property you need with aclrtGetDeviceInfo(deviceId, attr, &int64Value) with an aclrtDevAttr, "
               "aclrtGetSocName() or aclGetDeviceCapability(), or drop the query");
      }
    } else if (const CallSpec* spec = typed_call(name); spec && !args.empty() && !args[0].empty()) {
      if (adapt_call(f, ci, close, args, *spec)) {
        f.count_converted("runtime");
        changed_note(f, ci, name, spec->acl_name);
      }
    } else if (name == "cudaEventCreateWithFlags" && args.size() == 2 && !args[1].empty()) {
      const EventFlags e = read_event_flags(f, args[1]);
      if (e.interprocess) {
        f.replace(ci, ci, "cudaEventCreateWithFlags");  // claimed
        f.count_unconverted("runtime");
        f.diag(Diag::CannIpcEvent, ci,
               "cudaEventCreateWithFlags with cudaEventInterprocess is left unchanged: AscendCL shares events "
               "between processes through ACL_EVENT_IPC and its own IPC handle calls",
               "create the event with aclrtCreateEventWithFlag(&event, ACL_EVENT_IPC) and exchange it with "
               "AscendCL's event IPC calls instead of cudaIpcGetEventHandle");
      } else {
        f.replace(ci, ci, "aclrtCreateEventWithFlag");
        const std::string acl = e.literal && !e.timing ? "ACL_EVENT_SYNC" : "ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE";
        const std::string cuda = squeezed(f, args[1].first, args[1].last);
        f.replace(args[1].first, args[1].last, acl);
        f.count_converted("runtime");
        if (!e.literal)
          f.diag(Diag::CannFlagsTranslated, Severity::Warning, ci,
                 "the event flags (" + cuda +
                     ") are not cudaEvent* constants Ferry can read; AscendCL's flag bits "
                     "differ, so " +
                     acl + " (CUDA's default: synchronizes and times) was passed",
                 "pass ACL_EVENT_SYNC alone for events that are never timed");
        else
          f.diag(Diag::CannFlagsTranslated, ci,
                 "event flags " + cuda + " → " + acl +
                     (e.blocking ? "; cudaEventBlockingSync has no AscendCL flag and was dropped "
                                   "(aclrtSynchronizeEvent waits as AscendCL decides)"
                                 : ""),
                 "ACL_EVENT_SYNC lets streams wait on the event, ACL_EVENT_TIME_LINE records timestamps for "
                 "aclrtEventElapsedTime");
      }
    } else if (name == "cudaStreamCreateWithPriority" && args.size() == 3 && !args[2].empty()) {
      // aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
      f.replace(ci, ci, "aclrtCreateStreamWithConfig");
      f.replace(args[0].last + 1, args[1].last, "");  // `, flags`
      f.insert_before(close, ", 0");
      f.count_converted("runtime");
      const std::string prio = squeezed(f, args[2].first, args[2].last);
      const auto v = constant_value(prio);
      f.diag(Diag::CannStreamPriority, v && *v < 0 ? Severity::Warning : Severity::Note, ci,
             "stream priority " + prio +
                 (v && *v < 0 ? " is a negative CUDA priority: AscendCL priorities are 0 (highest) to 7 (lowest), "
                                "so this value is out of range"
                              : " passed as is: AscendCL priorities are 0 (highest) to 7 (lowest), CUDA's are "
                                "<= 0 with 0 the lowest") +
                 "; the CUDA stream flags were dropped (flag 0: a plain stream)",
             "take the value from aclrtDeviceGetStreamPriorityRange(&least, &greatest) (migrated from "
             "cudaDeviceGetStreamPriorityRange); on Atlas A2/A3 training products the priority is reserved");
    } else if (name == "cudaHostAlloc" && args.size() == 3 && !args[0].empty()) {
      // aclrtMallocHost(void **hostPtr, size_t size): no flags.
      f.replace(ci, ci, "aclrtMallocHost");
      if (!already_void_pp(f, args[0])) f.insert_before(args[0].first, "(void **)");
      const std::string flags = squeezed(f, args[2].first, args[2].last);
      f.replace(args[1].last + 1, args[2].last, "");  // `, flags`
      f.count_converted("runtime");
      const bool plain = flags == "0" || flags == "cudaHostAllocDefault" || flags == "cudaHostAllocPortable";
      f.diag(Diag::CannFlagsTranslated, plain ? Severity::Note : Severity::Warning, ci,
             "cudaHostAlloc's flags (" + flags + ") have no AscendCL equivalent and were dropped" +
                 std::string(plain ? ""
                                   : ": mapped (zero-copy) or write-combined host memory is not what "
                                     "aclrtMallocHost gives"),
             "copy to device memory with aclrtMemcpy[Async] instead of reading host memory from the device");
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
               std::string(name) + ": the capacity argument (" + cap + ") is not provably >= the count (" + count + ")",
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
    else if (t == "main" && depth == 0 && main_open == npos && f.is(ci + 1, "(") && ci > 0 && f.is_identifier(ci - 1) &&
             !f.is_member_or_qualified(ci)) {
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
