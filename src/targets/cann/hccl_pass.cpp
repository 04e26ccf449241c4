// NCCL → HCCL calls whose HCCL twin takes other arguments (signatures: docs/targets.md#cann, from
// hccl.h / hccl_comm.h):
// - ncclBroadcast(sendbuff, recvbuff, ...) has no two-buffer twin: HcclBroadcast(buf, count,
//   dataType, root, comm, stream) works in place;
// - HCCL's send buffers are `void *` where NCCL's are `const void *`;
// - HcclGetRankSize/HcclGetRankId write uint32_t where ncclCommCount/ncclCommUserRank write int;
// - HcclCommInitAll(ndev, int32_t *devices, comms) takes NCCL's arguments in another order.
#include <string>
#include <vector>

#include "targets/cann/passes.h"

namespace ferry::targets::cann {
namespace {

using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

// NCCL calls whose first argument is a `const void *` send buffer that HCCL takes as `void *`.
bool has_const_send_buffer(std::string_view name) {
  return name == "ncclAllReduce" || name == "ncclAllGather" || name == "ncclReduceScatter" || name == "ncclReduce" ||
         name == "ncclSend";
}

void broadcast(FileMigration& f, std::size_t ci, const std::vector<ArgRange>& args) {
  const std::string send = squeezed(f, args[0].first, args[0].last);
  const std::string recv = squeezed(f, args[1].first, args[1].last);
  if (send == recv) {
    // Only the glue changes: later arguments (ncclFloat, the stream) are still renamed by the tables.
    f.replace_bytes(f.code(ci).begin, f.code(args[1].first).begin, "HcclBroadcast(");
    f.count_converted("nccl");
    return;
  }
  f.replace(ci, ci, "ncclBroadcast");  // claimed: a plain rename would keep the wrong arity
  f.count_unconverted("nccl");
  f.diag(Diag::CannBroadcastBuffers, ci,
         "ncclBroadcast with different send (" + send + ") and receive (" + recv +
             ") buffers has no HCCL twin: HcclBroadcast(buf, count, dataType, root, comm, stream) works in place; "
             "left unchanged",
         "on the root rank copy the send buffer into the receive buffer (aclrtMemcpyAsync on the same stream), "
         "then call HcclBroadcast(" +
             recv + ", count, dataType, root, comm, stream)");
}

// ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist) →
// HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms).
void init_all(FileMigration& f, std::size_t ci, std::size_t close, const std::vector<ArgRange>& args) {
  const std::string devs = squeezed(f, args[2].first, args[2].last);
  if (devs == "0" || devs == "NULL" || devs == "nullptr") {
    f.replace(ci, ci, "ncclCommInitAll");  // claimed
    f.count_unconverted("nccl");
    f.diag(Diag::CannInitAllNullDevices, ci,
           "ncclCommInitAll with a null device list (devices 0..ndev-1) has no HCCL form: HcclCommInitAll(ndev, "
           "devices, comms) needs the list; left unchanged",
           "fill an int32_t array with 0..ndev-1 and call HcclCommInitAll(ndev, devices, comms)");
    return;
  }
  std::string dev_arg(f.span_text(args[2].first, args[2].last));
  bool plain = false;
  if (args[2].first == args[2].last && f.is_identifier(args[2].first)) {
    const DeclInfo d = declaration_of(f, f.text(args[2].first), args[2].first);
    const bool int32 = d.found && d.builtin && canonical_type(d.type) == "int";
    plain = int32 && ((d.pointer_level == 1 && !d.pointee_const) || (d.is_array && !d.is_const));
  }
  if (!plain) dev_arg = "const_cast<int32_t *>(" + dev_arg + ")";
  f.replace(ci, close,
            "HcclCommInitAll(" + std::string(f.span_text(args[1].first, args[1].last)) + ", " + dev_arg + ", " +
                std::string(f.span_text(args[0].first, args[0].last)) + ")");
  f.count_converted("nccl");
}

CallSpec rank_query(std::string acl, std::string out_name) {
  return CallSpec{std::move(acl),
                  "HcclResult",
                  "HCCL_SUCCESS",
                  {CallParam{0, {}, false, {}, "comm"}, CallParam{1, {}, true, "uint32_t", std::move(out_name)}}};
}

}  // namespace

void hccl_pass(FileMigration& f) {
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || !f.is(ci + 1, "(") || f.excluded(ci) || f.touched(ci) || f.is_member_or_qualified(ci) ||
        f.code(ci).in_directive)
      continue;
    const std::string_view name = f.text(ci);
    if (name.rfind("nccl", 0) != 0) continue;
    const std::size_t close = f.match_bracket(ci + 1);
    if (close == npos) continue;
    const auto args = f.call_args(ci + 1);
    if (name == "ncclBroadcast" && args.size() == 7 && !args[0].empty() && !args[1].empty()) {
      broadcast(f, ci, args);
    } else if (has_const_send_buffer(name) && args.size() >= 6 && !args[0].empty()) {
      // The name is renamed by the tables; only the send buffer may need its const cast away.
      mutable_void_arg(f, args[0]);
    } else if (name == "ncclBcast" && args.size() == 6 && !args[0].empty()) {
      mutable_void_arg(f, args[0]);
    } else if (name == "ncclCommInitAll" && args.size() == 3 && !args[2].empty()) {
      init_all(f, ci, close, args);
    } else if (name == "ncclCommCount" && args.size() == 2) {
      if (adapt_call(f, ci, close, args, rank_query("HcclGetRankSize", "rankSize"))) f.count_converted("nccl");
    } else if (name == "ncclCommUserRank" && args.size() == 2) {
      if (adapt_call(f, ci, close, args, rank_query("HcclGetRankId", "rank"))) f.count_converted("nccl");
    }
  }
}

}  // namespace ferry::targets::cann
