// `ferry diffrun --wave64 --bisect`, second half: which kernel launch of a differing port first
// computes something else than the original, and is replacing that launch by the original's
// enough to make the port compute what the reference does?
//
// Both sides run again with the runtime's launch trace (W64_TRACE, runtime/wave64/include/
// wave64/trace.h): for every launch, its kernel's name, a hash of every cudaMalloc/hipMalloc
// buffer before it and the contents of every buffer it changed. The traces are walked launch by
// launch; the first launch whose changed buffers differ (beyond the comparison's tolerances, read
// as float32 or float64 values) is the first kernel whose outputs differ. The port then runs once
// more with that launch replaced by the original's (W64_TRACE_REPLAY: the launch is not run, its
// buffers get the reference's contents), and, if that is not enough, with every launch replaced.
// The kernel's definition is found in the port's sources, and the wave64 fix sites (bisect.h)
// and the wave64 hazards the migration reported (FRY2xxx in the migration's .ferry/report.json)
// inside it are listed.
//
// What the trace does not see: __device__ and __constant__ variables, CUDA arrays and textures,
// host memory written by kernels through mapped pointers other than cudaMallocHost. Buffers are
// matched by allocation order, so a port that allocates differently cannot be compared.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diffrun/bisect.h"
#include "diffrun/diffrun.h"
#include "diffrun/wave64_sides.h"

namespace ferry::diffrun {

struct TraceBuffer {
  std::uint64_t id = 0;
  std::size_t size = 0;
  std::uint64_t hash = 0;
  std::string file;  // contents, relative to the trace folder; empty past the caps
};

struct TraceLaunch {
  std::uint64_t index = 0;
  std::string name;
  std::map<std::uint64_t, TraceBuffer> in;   // every live buffer before the launch, by id
  std::map<std::uint64_t, TraceBuffer> out;  // the buffers it changed
  bool replaced = false;
};

// Reads DIR/trace.txt; empty when absent.
[[nodiscard]] std::vector<TraceLaunch> read_trace(const std::filesystem::path& dir);

// The kernel's name as a C++ identifier: `HIP_KERNEL_NAME(ns::k<T, 3>)` -> "k".
[[nodiscard]] std::string kernel_identifier(const std::string& spelled);

// Compares two launches' outputs; empty when the same, else what differs (one line).
[[nodiscard]] std::string compare_launch_outputs(const TraceLaunch& ref, const std::filesystem::path& ref_dir,
                                                 const TraceLaunch& port, const std::filesystem::path& port_dir,
                                                 const Tolerance& tol);

struct KernelSite {
  std::string file;  // relative to the port's folder
  int line = 0;      // of the definition
  int end_line = 0;  // of its closing brace
};

// The definition of `kernel` (an identifier) among the port folder's sources; line 0 when none.
[[nodiscard]] KernelSite find_kernel(const std::filesystem::path& port_dir, const std::string& kernel);

struct LaunchBisect {
  std::string error;  // why no trace could be compared; the rest is empty then
  std::size_t ref_launches = 0;
  std::size_t port_launches = 0;
  long first = -1;  // index of the first launch whose outputs differ
  std::string kernel;
  std::string ref_kernel;  // when the reference launched another kernel at that index
  bool inputs_equal = false;
  std::string what;
  std::string replaced_verdict;  // the port with that launch replaced by the original's
  std::string replaced_first_difference;
  std::string all_replaced_verdict;  // with every launch replaced; empty when not run
  KernelSite site;
  std::vector<std::string> notes;  // fix sites and hazards inside the kernel
  std::string conclusion;
};

struct LaunchBisectOptions {
  std::filesystem::path port_dir;     // the port's program folder (absolute)
  std::vector<BisectSite> fix_sites;  // from bisect_fixes, when it ran
  std::filesystem::path work;         // traces go to WORK/trace-{ref,port,replaced,all}
};

// `spec` as diffrun --wave64 ran it (both sides built).
[[nodiscard]] LaunchBisect bisect_launches(const Spec& spec, const LaunchBisectOptions& o,
                                           const std::function<void(const std::string&)>& log = {});

[[nodiscard]] nlohmann::json to_json(const LaunchBisect& b);
[[nodiscard]] std::string to_text(const LaunchBisect& b);

}  // namespace ferry::diffrun
