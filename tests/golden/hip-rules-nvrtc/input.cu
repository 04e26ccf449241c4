// NVRTC: compile a kernel from a string at run time.
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <string>

std::string compile(const char* source) {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, source, "k.cu", 0, nullptr, nullptr);
  const char* opts[] = {"--std=c++17"};
  if (nvrtcCompileProgram(prog, 1, opts) != NVRTC_SUCCESS) {
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    nvrtcDestroyProgram(&prog);
    return log;
  }
  size_t size = 0;
  nvrtcGetPTXSize(prog, &size);
  std::string code(size, '\0');
  nvrtcGetPTX(prog, &code[0]);
  nvrtcDestroyProgram(&prog);
  return code;
}
