// ncclBroadcast(sendbuff, recvbuff, count, type, root, comm, stream) has no two-buffer HCCL twin:
// HcclBroadcast(buf, count, dataType, root, comm, stream) works in place.
#include "targets/cann/passes.h"

namespace ferry::targets::cann {

void hccl_pass(migrate::FileMigration& f) {
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is(ci, "ncclBroadcast") || !f.is(ci + 1, "(") || f.excluded(ci) || f.touched(ci) ||
        f.is_member_or_qualified(ci))
      continue;
    const auto args = f.call_args(ci + 1);
    if (args.size() != 7 || args[0].empty() || args[1].empty()) continue;
    const std::string send = squeezed(f, args[0].first, args[0].last);
    const std::string recv = squeezed(f, args[1].first, args[1].last);
    if (send == recv) {
      // Only the glue changes: later arguments (ncclFloat, the stream) are still renamed by the tables.
      f.replace_bytes(f.code(ci).begin, f.code(args[1].first).begin, "HcclBroadcast(");
      f.count_converted("nccl");
      continue;
    }
    f.replace(ci, ci, "ncclBroadcast");  // claimed: a plain rename would keep the wrong arity
    f.count_unconverted("nccl");
    f.diag(Diag::CannBroadcastBuffers, ci,
           "ncclBroadcast with different send (" + send + ") and receive (" + recv +
               ") buffers has no HCCL twin: HcclBroadcast(buf, count, dataType, root, comm, stream) works in place; "
               "left unchanged",
           "on the root rank copy the send buffer into the receive buffer (aclrtMemcpyAsync on the same stream), "
           "then call HcclBroadcast(" + recv + ", count, dataType, root, comm, stream)");
  }
}

}  // namespace ferry::targets::cann
