#include "diffrun/wave64_sides.h"

#include <stdexcept>

namespace ferry::diffrun {

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+./=:,@%") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (const char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

namespace {

// A source with glob characters is left for the shell to expand in the side's folder.
std::string source_word(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos ? s : shell_quote(s);
}

}  // namespace

Side wave64_side(const Wave64Sides& w, const Side& base, const std::string& name, int wave, const std::string& api) {
  Side side = base;
  const std::string out = w.work + "/" + name;
  std::string cmd = shell_quote(w.ferry) + " wave64 build";
  for (const std::string& s : w.sources) cmd += " " + source_word(s);
  for (const std::string& d : w.include_dirs) cmd += " -I " + shell_quote(d);
  for (const std::string& d : w.defines) cmd += " -D " + shell_quote(d);
  // -O2 unless the flags give a level: the runtime's speed model (plain loops over lanes with the
  // kernel inlined) is what g++ makes of it at -O2; at ferry wave64 build's -O1 the same kernels
  // ran up to 1.7 times slower (How_to_optimize_in_GPU's reduce_v7_shuffle).
  bool level = false;
  for (const std::string& f : w.build_flags) {
    cmd += " " + shell_quote(f);
    level = level || f.rfind("-O", 0) == 0 || f.rfind("--opt", 0) == 0;
  }
  if (!level) cmd += " -O2";
  cmd += " --api " + shell_quote(api);
  if (wave) cmd += " --wave " + std::to_string(wave);
  if (w.device_model != "native") cmd += " --device " + shell_quote(w.device_model);
  cmd += " -o " + shell_quote(out + "/program") + " --work " + shell_quote(out + "/work");
  side.build = cmd;
  // Both sides see the same time() (the runtime honours W64_TIME), so time-seeded inputs match,
  // and the same argv[0] ("program"; the two builds live in different folders), which many
  // programs print ("%s Starting...").
  side.run = "W64_TIME=" + std::to_string(w.fixed_time) + " bash -c 'exec -a program \"$0\" \"$@\"' " +
             shell_quote(out + "/program") + (w.args.empty() ? "" : " " + w.args);
  return side;
}

void apply_wave64(const Wave64Sides& w, Spec& spec) {
  if (w.sources.empty()) throw std::invalid_argument("--wave64 needs the program's --sources");
  if (w.work.empty() || w.ferry.empty()) throw std::invalid_argument("--wave64: no work folder or ferry binary");
  spec.ref = wave64_side(w, spec.ref, "ref", w.ref_wave, w.ref_api);
  spec.port = wave64_side(w, spec.port, "port", w.port_wave, w.port_api);
}

}  // namespace ferry::diffrun
