#include "verify/mpi.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "verify/includes.h"

namespace fs = std::filesystem;

namespace ferry::verify {

bool includes_mpi(std::string_view source) {
  return !find_include(source, [](std::string_view h) { return h == "mpi.h"; }).empty();
}

std::vector<std::string> parse_mpi_compile_flags(std::string_view output) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while (p < output.size()) {
    while (p < output.size() && (output[p] == ' ' || output[p] == '\t' || output[p] == '\n' || output[p] == '\r')) ++p;
    std::size_t e = p;
    while (e < output.size() && output[e] != ' ' && output[e] != '\t' && output[e] != '\n' && output[e] != '\r') ++e;
    const std::string_view w = output.substr(p, e - p);
    if (w.starts_with("-I") || w.starts_with("-D") || w == "-pthread") out.emplace_back(w);
    p = e;
  }
  return out;
}

MpiFlags find_mpi(const ProcessRunner& runner) {
  std::vector<std::string> wrappers;
  if (const char* e = std::getenv("FERRY_MPICXX"); e && *e) wrappers.emplace_back(e);
  for (const char* w : {"mpicxx", "mpic++", "mpicc"}) wrappers.emplace_back(w);
  std::string tried;
  for (const std::string& w : wrappers) {
    tried += (tried.empty() ? "" : ", ") + w;
    const ProcessResult pr = runner.run({w, "--showme:compile"}, fs::current_path(), std::chrono::seconds(30));
    if (pr.launch_failed || pr.timed_out || pr.exit_code != 0) continue;
    MpiFlags m;
    m.wrapper = w;
    m.flags = parse_mpi_compile_flags(pr.output);
    return m;
  }
  MpiFlags none;
  none.problem = "no MPI compiler wrapper answered --showme:compile (tried " + tried +
                 "): install an MPI (Debian: libopenmpi-dev) or set FERRY_MPICXX";
  return none;
}

}  // namespace ferry::verify
