// NVRTC takes its options as `const char* const*`, so CUDA code hands it a `char**` or a
// `char* opts[]` (seen in cuda-samples' nvrtc_helper.h: 7 units failed with 'no matching
// function' for hiprtcCompileProgram, which takes `const char**`). The argument gets a
// const_cast; calls with no options, with a cast as written, or with an array the file declares
// `const char*`, are only renamed.
#include <cstdlib>
#include <cstring>
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hiprtc.h>

int compile(hiprtcProgram prog, int argc, char** argv, const char* arch) {
  char* opts[2];
  opts[0] = strdup("--std=c++17");
  opts[1] = strdup(arch);
  hiprtcResult r = hiprtcCompileProgram(prog, 2, (const_cast<const char**>(opts)) /* ferry-cuda: opts */);
  free(opts[0]);
  free(opts[1]);
  if (r != HIPRTC_SUCCESS) return 1;
  r = hiprtcCompileProgram(prog, argc - 1, (const_cast<const char**>(argv + 1)) /* ferry-cuda: argv + 1 */);
  if (r != HIPRTC_SUCCESS) return 1;
  const char* fixed[] = {"-default-device"};
  r = hiprtcCompileProgram(prog, 1, fixed);
  if (r != HIPRTC_SUCCESS) return 1;
  return hiprtcCompileProgram(prog, 0, nullptr) == HIPRTC_SUCCESS ? 0 : 1;
}
