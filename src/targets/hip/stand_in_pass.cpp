// A project header that stands in for cuda.h: its own copy of the driver API (typedefs, enums,
// structs, `extern tcuInit *cuInit;` function-pointer variables) that a loader fills from
// libcuda with dlopen (cuda-samples matrixMulDynlinkJIT's cuda_drvapi_dynlink_cuda.h). Renamed to
// HIP names, its declarations collide with HIP's own (138 redefinitions there), and HIP has no
// loader to port it to. docs/targets.md records the counts behind the threshold: the stand-in
// declares 388 names the cuda2hip rules map, 87% of its declarations; the next header of the
// cuda-samples tree declares 6.
//
// What is built: the detection and FRY1410 on the header and on every #include line of the tree
// that names it, so that the user knows the unit needs the loader ported by hand, and verify
// classes what fails there as diagnosed. The header is migrated as before.
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "lex/code_view.h"
#include "migrate/file_migration.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

constexpr std::size_t kMinMappedNames = 50;  // and at least half of the header's declared names

bool is_header(std::string_view path) {
  return path.ends_with(".h") || path.ends_with(".hpp") || path.ends_with(".cuh") || path.ends_with(".hh");
}

// A name in a declaring position: followed by `;`, `,`, `=`, `{` or `}` (a typedef or variable,
// an enumerator, a struct tag), and not itself a value (after `=`, `(`, `return`, an operator).
bool declared_here(const lex::CodeView& v, std::size_t ci) {
  if (!v.is_identifier(ci) || v.in_directive(ci) || ci == 0) return false;
  if (!(v.is(ci + 1, ";") || v.is(ci + 1, ",") || v.is(ci + 1, "=") || v.is(ci + 1, "{") || v.is(ci + 1, "}")))
    return false;
  const std::string_view prev = v.text(ci - 1);
  return !(prev == "=" || prev == "(" || prev == "return" || prev == "|" || prev == "+" || prev == "-" ||
           prev == "<<" || prev == "." || prev == "->" || prev == "::");
}

struct Count {
  std::size_t mapped = 0;
  std::size_t declared = 0;
  std::size_t first_mapped = lex::npos;  // code index of the first mapped declaration
};

Count count_declarations(const lex::CodeView& v, const rules::RuleSet& rules) {
  Count c;
  std::unordered_set<std::string_view> seen;
  for (std::size_t ci = 1; ci + 1 < v.code_size(); ++ci) {
    if (!declared_here(v, ci) || !seen.insert(v.text(ci)).second) continue;
    ++c.declared;
    const rules::Rule* r = rules.find_identifier(v.text(ci));
    if (r && r->has_replacement()) {
      ++c.mapped;
      if (c.first_mapped == lex::npos) c.first_mapped = ci;
    }
  }
  return c;
}

bool stands_in(const Count& c) { return c.mapped >= kMinMappedNames && 2 * c.mapped >= c.declared; }

std::string normal(const std::filesystem::path& p) { return p.lexically_normal().generic_string(); }

}  // namespace

namespace {

class StandInScan final : public ProjectScan {
 public:
  explicit StandInScan(const rules::RuleSet& rules) : rules_(rules) {}
  bool wants(const SourceView& f, std::string_view) const override { return is_header(f.path); }
  void file(const SourceView& f, const migrate::FileMigration& v, ProjectContext& ctx) override {
    const Count c = count_declarations(v, rules_);
    if (stands_in(c)) ctx.cuda_stand_ins[normal(f.path)] = c.mapped;
  }
  void finish(const std::vector<SourceView>&, ProjectContext&) override {}

 private:
  const rules::RuleSet& rules_;
};

}  // namespace

std::unique_ptr<ProjectScan> stand_in_scan(const rules::RuleSet& rules) { return std::make_unique<StandInScan>(rules); }

void stand_in_pass(migrate::FileMigration& file, const rules::RuleSet& rules) {
  const auto& stand_ins = file.project().cuda_stand_ins;
  if (stand_ins.empty()) return;
  const std::string self = normal(file.path());
  if (const auto it = stand_ins.find(self); it != stand_ins.end()) {
    const Count c = count_declarations(file, rules);
    if (c.first_mapped != lex::npos)
      file.diag(Diag::CudaStandInHeader, c.first_mapped,
                "this header stands in for cuda.h: it declares " + std::to_string(it->second) +
                    " names of the CUDA API itself (a loader fills them from libcuda); renamed to HIP names "
                    "they collide with HIP's own declarations, and HIP has no loader to port it to",
                "port the code to call HIP directly: include <hip/hip_runtime.h> instead of this header and "
                "link libamdhip64 (drop the loader), or load libamdhip64 with dlopen under HIP's names");
  }
  // #include lines that name a stand-in: beside the file, else through -I (a path suffix).
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind != lex::Kind::HeaderName || file.excluded(ci)) continue;
    const std::string_view written = file.text(ci);
    if (written.size() < 2 || written.front() != '"') continue;
    const std::string inc(written.substr(1, written.size() - 2));
    std::string hit;
    const std::string beside = normal(std::filesystem::path(self).parent_path() / inc);
    if (stand_ins.count(beside)) hit = beside;
    else
      for (const auto& [path, n] : stand_ins)
        if (path == normal(inc) || path.ends_with("/" + normal(inc))) hit = path;
    if (hit.empty()) continue;
    file.diag(Diag::CudaStandInHeader, ci,
              "'" + inc + "' stands in for cuda.h (it declares " + std::to_string(stand_ins.at(hit)) +
                  " CUDA API names a loader fills from libcuda): this unit needs the loader ported by hand",
              "include <hip/hip_runtime.h> instead and link libamdhip64, or load libamdhip64 under HIP's names");
  }
}

}  // namespace ferry::targets::hip
