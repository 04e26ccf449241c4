// NVRTC: compile a kernel from a string at run time.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <string>

std::string compile(const char* source) {
  hiprtcProgram prog;
  hiprtcCreateProgram(&prog, source, "k.cu", 0, nullptr, nullptr);
  const char* opts[] = {"--std=c++17"};
  if (hiprtcCompileProgram(prog, 1, opts) != HIPRTC_SUCCESS) {
    size_t log_size = 0;
    hiprtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    hiprtcGetProgramLog(prog, &log[0]);
    hiprtcDestroyProgram(&prog);
    return log;
  }
  size_t size = 0;
  hiprtcGetCodeSize(prog, &size);
  std::string code(size, '\0');
  hiprtcGetCode(prog, &code[0]);
  hiprtcDestroyProgram(&prog);
  return code;
}
