#include "targets/hip/compat.h"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "analysis/names.h"
#include "lex/code_view.h"
#include "rewrite/roundtrip_record.h"
#include "rules/builtin.h"
#include "targets/hip/pass_util.h"

namespace ferry::targets::hip {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDir = "compat/hip/";

CompatTable load() {
  CompatTable t;
  for (const rules::EmbeddedTable& e : rules::builtin_tables()) {
    if (!e.path.starts_with(kDir) || !e.path.ends_with(".h")) continue;
    std::string_view name = e.path.substr(kDir.size());
    name.remove_suffix(2);
    t.text.emplace(std::string(name), e.text);
  }
  for (const rules::EmbeddedTable& e : rules::builtin_tables()) {
    if (e.path != "compat/hip/compat.tsv") continue;
    std::size_t start = 0, line_no = 0;
    while (start < e.text.size()) {
      std::size_t nl = e.text.find('\n', start);
      if (nl == std::string_view::npos) nl = e.text.size();
      const std::string_view line = e.text.substr(start, nl - start);
      start = nl + 1;
      ++line_no;
      if (line.empty() || line.front() == '#') continue;
      const std::size_t t1 = line.find('\t');
      const std::size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
      const std::string where = "rules/compat/hip/compat.tsv:" + std::to_string(line_no);
      if (t2 == std::string_view::npos || line.find('\t', t2 + 1) != std::string_view::npos)
        throw std::runtime_error(where + ": expected kind, name, header");
      const std::string_view kind = line.substr(0, t1);
      const std::string name(line.substr(t1 + 1, t2 - t1 - 1));
      const std::string header(line.substr(t2 + 1));
      if (!t.text.contains(header)) throw std::runtime_error(where + ": no compat header '" + header + ".h'");
      if (kind == "name") t.by_name.emplace(name, header);
      else if (kind == "header") t.by_header.emplace(name, header);
      else throw std::runtime_error(where + ": kind must be name or header");
    }
  }
  return t;
}

// "../../" for a file two folders below the output root ("" at the root or for one file).
std::string root_prefix(const migrate::FileMigration& file) {
  if (file.project().single_file) return {};
  std::string prefix;
  for (char c : file.path())
    if (c == '/') prefix += "../";
  return prefix;
}

std::string include_path(const migrate::FileMigration& file, std::string_view header) {
  return root_prefix(file) + "ferry/compat/" + std::string(header) + ".h";
}

bool is_compat_file(const migrate::FileMigration& file) {
  return file.source().starts_with(
      "// ferry: off\n// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/");
}

// The words of the directives after_leading_includes reads, in file order (the `#` before each).
std::vector<std::uint32_t> leading_directive_words(const migrate::FileMigration& file) {
  return file.occurrences({"if", "ifdef", "ifndef", "endif", "include"});
}

// Byte offset just after the last #include at the top level of the file (outside #if blocks)
// before code token `limit`; npos when there is none. `words`: leading_directive_words(file),
// taken once for all the file's compat uses.
std::uint32_t after_leading_includes(const migrate::FileMigration& file, const std::vector<std::uint32_t>& words,
                                     std::size_t limit) {
  int depth = 0;
  std::uint32_t at = static_cast<std::uint32_t>(std::string_view::npos);
  const std::string_view src = file.source();
  for (const std::uint32_t word : words) {
    if (word == 0) continue;
    const std::size_t ci = word - 1;
    if (ci >= limit) break;
    if (!file.in_directive(ci) || !file.is(ci, "#")) continue;
    const std::string_view d = file.text(ci + 1);
    if (d == "if" || d == "ifdef" || d == "ifndef") ++depth;
    else if (d == "endif") --depth;
    else if (d == "include" && depth == 0) {
      const std::size_t nl = src.find('\n', file.code(ci + 1).end);
      at = static_cast<std::uint32_t>(nl == std::string_view::npos ? src.size() : nl + 1);
    }
  }
  return at;
}

}  // namespace

const CompatTable& compat_table() {
  static const CompatTable kTable = load();
  return kTable;
}

void apply_toolchain(rules::RuleSet& set, const Toolchain& tc, std::string_view blas, std::string_view sparse) {
  const CompatTable& compat = compat_table();
  set.adjust([&](rules::Rule& r) {
    r.availability = rules::Availability::Available;
    r.compat = {};
    if (!r.has_replacement() || !r.since.known() || r.kind == rules::RuleKind::Namespace) return;
    if (r.since <= tc.version_of(library_of_family(r.family, blas, sparse))) return;
    const auto& index = r.kind == rules::RuleKind::Header ? compat.by_header : compat.by_name;
    const std::string_view key = r.kind == rules::RuleKind::Header ? r.from : r.to.substr(0, r.to.find('('));
    if (auto it = index.find(key); it != index.end()) {
      r.availability = rules::Availability::Compat;
      r.compat = it->second;
    } else {
      r.availability = rules::Availability::Missing;
    }
  });
}

namespace {

class UserCompatScan final : public ProjectScan {
 public:
  // The compat names as a hash set: each distinct name of each file is asked (one hash, not a
  // walk down the table's tree with a comparison per level).
  UserCompatScan() {
    for (const auto& [name, header] : compat_table().by_name) names_.insert(name);
  }
  bool wants(const SourceView&, std::string_view text) const override {
    // Ferry's own compat headers, written into a migrated tree, define them all: they are ours.
    return !text.starts_with("// ferry: off\n// Written by Ferry (ferry migrate --to hip) into the output tree:");
  }
  void file(const SourceView& f, const migrate::FileMigration& v, ProjectContext& ctx) override {
    // The compat names (decided once per name), in file order.
    for (const std::size_t ci :
         analysis::detail::identifiers_where(v, [&](std::string_view name) { return names_.contains(name); })) {
      if (ci < 1 || ci + 1 >= v.code_size() || v.in_directive(ci) || !v.is(ci + 1, "(")) continue;
      const std::string_view name = v.text(ci);
      // A definition: a return type before the name (not a call's operator or `return`), and a body
      // after the parameter list (possibly after const / noexcept).
      const std::string_view prev = v.text(ci - 1);
      if (!(v.is_identifier(ci - 1) || prev == "*" || prev == "&" || prev == ">") || prev == "return") continue;
      std::size_t after = v.match_bracket(ci + 1);
      if (after == lex::npos) continue;
      ++after;
      while (v.is(after, "const") || v.is(after, "noexcept")) ++after;
      if (!v.is(after, "{")) continue;
      // A `static` definition in a source file (not a header) serves its own translation unit
      // only (cuda-samples' mergeSort_host.cpp has a host `static uint umin(...)` while
      // mergeSort.cu calls CUDA's): it is recorded as "PATH<TAB>NAME", which only that file
      // matches (file_migration.cpp); any other definition serves every file of the project.
      bool is_static = false;
      for (std::size_t k = ci; k-- > 0;) {
        if (v.is(k, ";") || v.is(k, "}") || v.is(k, "{") || v.in_directive(k)) break;
        if (v.is(k, "static")) is_static = true;
      }
      const std::string ext = fs::path(f.path).extension().string();
      const bool header = ext == ".h" || ext == ".hpp" || ext == ".cuh" || ext == ".hh" || ext == ".inl" || ext.empty();
      if (is_static && !header) ctx.user_compat_definitions.emplace(f.path + "\t" + std::string(name));
      else ctx.user_compat_definitions.emplace(name);
    }
  }
  void finish(const std::vector<SourceView>&, ProjectContext&) override {}

 private:
  std::unordered_set<std::string_view> names_;  // views into compat_table(), which outlives the scan
};

}  // namespace

std::unique_ptr<ProjectScan> user_compat_scan() { return std::make_unique<UserCompatScan>(); }

void compat_header_pass(migrate::FileMigration& file) {
  if (is_compat_file(file)) return;
  for (const std::size_t ci : header_names(file)) {
    if (file.excluded(ci)) continue;
    const std::string_view raw = file.text(ci);
    const rules::Rule* r = file.target().rules().find_header(raw.substr(1, raw.size() - 2));
    if (!r || r->availability != rules::Availability::Compat) continue;
    // The way back writes the CUDA header in angle brackets (`<math_constants.h>`); a quoted
    // original (`"math_constants.h"`) keeps its spelling in a header record.
    const std::string record = raw.front() == '"' ? " " + rewrite::record::make(raw) : std::string();
    if (file.replace(ci, ci, "\"" + include_path(file, std::string(r->compat)) + "\"" + record)) {
      file.count_converted(r->family);
      file.require_compat(std::string(r->compat), std::string(r->from), ci);
    }
  }
}

void compat_finish(migrate::FileMigration& file) {
  if (file.compat_uses().empty() || is_compat_file(file)) return;
  const CompatTable& compat = compat_table();
  const std::vector<std::uint32_t> includes = header_names(file);  // the code indices of its #include paths
  const std::vector<std::uint32_t> directive_words = leading_directive_words(file);
  for (const migrate::FileMigration::CompatUse& use : file.compat_uses()) {
    const std::string path = include_path(file, use.header);
    // Already included (migrated output migrated again, or the header rule above): nothing to add.
    bool included = false;
    const std::string own = "ferry/compat/" + use.header + ".h";
    for (std::size_t k = 0; k < includes.size() && !included; ++k) {
      const std::size_t ci = includes[k];
      const std::string_view raw = file.text(ci);
      included = raw.substr(1, raw.size() - 2).ends_with(own) || (ci == use.ci && file.touched(ci));
    }
    if (!included) {
      // A compat header that stands for a CUDA header (math_constants.h, cuda_bf16.h) comes back as
      // that header's include unless recorded as added: the CUDA original had none.
      bool stands_for_header = false;
      for (const auto& [cuda_header, name] : compat.by_header)
        stands_for_header = stands_for_header || name == use.header;
      const std::string line = "#include \"" + path + "\"" +
                               (stands_for_header ? " " + std::string(rewrite::record::kAdded) : std::string()) + "\n";
      const std::uint32_t at = after_leading_includes(file, directive_words, use.ci);
      if (at != static_cast<std::uint32_t>(std::string_view::npos)) file.replace_bytes(at, at, line);
      else file.insert_line_at_top(line);
    }
    file.add_side_output(path, std::string(compat.text.at(use.header)));
    file.diag(Diag::CompatHeaderUsed, use.ci,
              "'" + use.name + "' is not in " + file.target().release() + ": Ferry's compat header " + "ferry/compat/" +
                  use.header + ".h provides it (written into the output tree, included here)",
              "the header is our own code for what this release lacks; migrate with a newer --hip-version "
              "to use HIP's own");
  }
}

}  // namespace ferry::targets::hip
