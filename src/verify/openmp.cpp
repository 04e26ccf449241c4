#include "verify/openmp.h"

#include "verify/includes.h"

namespace ferry::verify {

bool uses_openmp(std::string_view source) {
  if (!find_include(source, [](std::string_view h) { return h == "omp.h"; }).empty()) return true;
  std::size_t pos = 0;
  while (pos < source.size()) {
    std::size_t nl = source.find('\n', pos);
    if (nl == std::string_view::npos) nl = source.size();
    std::string_view line = source.substr(pos, nl - pos);
    pos = nl + 1;
    auto skip_blanks = [&line] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skip_blanks();
    if (line.empty() || line.front() != '#') continue;
    line.remove_prefix(1);
    skip_blanks();
    if (!line.starts_with("pragma")) continue;
    line.remove_prefix(6);
    if (line.empty() || (line.front() != ' ' && line.front() != '\t')) continue;
    skip_blanks();
    if (line.starts_with("omp") && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r'))
      return true;
  }
  return false;
}

bool is_openmp_flag(std::string_view arg) {
  if (arg == "-fopenmp" || arg == "-qopenmp" || arg == "-openmp" || arg.starts_with("-fopenmp=")) return true;
  if (arg.starts_with("-Xcompiler=")) arg.remove_prefix(11);
  else if (arg.starts_with("--compiler-options=")) arg.remove_prefix(19);
  // an -Xcompiler value: a comma-separated list of host flags
  std::size_t p = 0;
  while (p <= arg.size()) {
    std::size_t e = arg.find(',', p);
    if (e == std::string_view::npos) e = arg.size();
    const std::string_view w = arg.substr(p, e - p);
    if (w == "-fopenmp" || w.starts_with("-fopenmp=")) return true;
    p = e + 1;
  }
  return false;
}

}  // namespace ferry::verify
