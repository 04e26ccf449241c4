// NVRTC takes its options as `const char* const*`, so CUDA code hands it a `char**` or a
// `char* opts[]` (seen in cuda-samples' nvrtc_helper.h: 7 units failed with 'no matching
// function' for hiprtcCompileProgram, which takes `const char**`). The argument gets a
// const_cast; calls with no options, with a cast as written, or with an array the file declares
// `const char*`, are only renamed.
#include <cstdlib>
#include <cstring>
#include <nvrtc.h>

int compile(nvrtcProgram prog, int argc, char** argv, const char* arch) {
  char* opts[2];
  opts[0] = strdup("--std=c++17");
  opts[1] = strdup(arch);
  nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
  free(opts[0]);
  free(opts[1]);
  if (r != NVRTC_SUCCESS) return 1;
  r = nvrtcCompileProgram(prog, argc - 1, argv + 1);
  if (r != NVRTC_SUCCESS) return 1;
  const char* fixed[] = {"-default-device"};
  r = nvrtcCompileProgram(prog, 1, fixed);
  if (r != NVRTC_SUCCESS) return 1;
  return nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_SUCCESS ? 0 : 1;
}
