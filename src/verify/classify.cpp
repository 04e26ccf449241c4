#include "verify/classify.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "project/project.h"

namespace fs = std::filesystem;

namespace ferry::verify {

std::string_view class_name(FailureClass c) {
  switch (c) {
    case FailureClass::None: return "none";
    case FailureClass::MigrationDefect: return "migration-defect";
    case FailureClass::MissingDependency: return "missing-dependency";
    case FailureClass::PreExisting: return "pre-existing";
    case FailureClass::Diagnosed: return "diagnosed";
    case FailureClass::TargetGap: return "target-gap";
    case FailureClass::Unknown: return "unknown";
  }
  return "unknown";
}

bool reports_not_migrated(std::string_view code) {
  // Each of these says the line was left for the user: no equivalent, inline assembly, an API name
  // with no rule, warp intrinsics HIP 5.2 lacks, texture references, a WMMA shape, rocPRIM with no
  // CUB form, a name the release lacks, dynamic parallelism, a memory location not converted, a
  // clashing name kept, graph edge data, a removed device property on an object of unknown type, a
  // variable-length array's initializer. (CudaStandInHeader, a header standing in for cuda.h, covers
  // its whole file: classify.) Named by enumerator, so the compiler checks each against the table.
  static constexpr Diag kLeftForTheUser[] = {Diag::ApiUnsupported,
                                             Diag::InlineAsm,
                                             Diag::ApiUnmapped,
                                             Diag::MatchSyncUnsupported,
                                             Diag::ReduceSyncUnsupported,
                                             Diag::TextureReference,
                                             Diag::WmmaShapeMissing,
                                             Diag::RocprimNoCub,
                                             Diag::ReleaseLacksName,
                                             Diag::DynamicParallelism,
                                             Diag::MemLocationNotConverted,
                                             Diag::HipNameClashKept,
                                             Diag::EdgeDataNotConverted,
                                             Diag::DevicePropUnknownObject,
                                             Diag::VlaInitializerLeft};
  const std::optional<Diag> d = parse_diag(code);
  return d && std::find(std::begin(kLeftForTheUser), std::end(kLeftForTheUser), *d) != std::end(kLeftForTheUser);
}

namespace {

// "cooperative_groups::thread_block_tile<32, cooperative_groups::thread_block>" -> "thread_block_tile",
// "const struct hipDeviceProp_t" -> "hipDeviceProp_t".
std::string bare_type(std::string_view t) {
  std::string out;
  int depth = 0;
  for (char c : t) {
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0) out += c;
  }
  for (std::string_view word : {"const ", "volatile ", "struct ", "class ", "union "})
    for (std::size_t p; (p = out.find(word)) != std::string::npos;) out.erase(p, word.size());
  while (!out.empty() && (out.back() == ' ' || out.back() == '*' || out.back() == '&')) out.pop_back();
  if (const std::size_t p = out.rfind("::"); p != std::string::npos) out.erase(0, p + 2);
  return out;
}

// The text between the quotes that follow `lead` in `m`, or nullopt.
std::optional<std::string_view> quoted_after(std::string_view m, std::string_view lead, std::size_t* end = nullptr) {
  const std::size_t p = m.find(lead);
  if (p == std::string_view::npos) return std::nullopt;
  const std::size_t b = p + lead.size();
  const std::size_t e = m.find('\'', b);
  if (e == std::string_view::npos) return std::nullopt;
  if (end) *end = e + 1;
  return m.substr(b, e - b);
}

}  // namespace

QuotedName quoted_name(std::string_view m) {
  QuotedName q;
  for (std::string_view lead : {"use of undeclared identifier '", "unknown type name '", "no template named '",
                                "use of undeclared label '", "no type named '"})
    if (auto n = quoted_after(m, lead)) {
      q.name = std::string(*n);
      return q;
    }
  std::size_t end = 0;
  if (auto n = quoted_after(m, "no member named '", &end)) {
    q.name = std::string(*n);
    const std::string_view rest = m.substr(end);
    if (rest.starts_with(" in namespace ")) return q;
    if (auto t = quoted_after(rest, " in '")) q.scope = bare_type(*t);
  }
  return q;
}

std::optional<std::string> nvcc_undefined_name(std::string_view message) {
  constexpr std::string_view kLead = "identifier \"", kTail = "\" is undefined";
  if (!message.starts_with(kLead) || !message.ends_with(kTail) || message.size() <= kLead.size() + kTail.size())
    return std::nullopt;
  return std::string(message.substr(kLead.size(), message.size() - kLead.size() - kTail.size()));
}

const FileLineMap* LineMaps::find(const std::string& rel) const {
  const auto it = files.find(rel);
  return it == files.end() ? nullptr : &it->second;
}

LineMaps line_maps_from_json(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  LineMaps maps;
  if (!j.contains("files")) return maps;
  for (const auto& [rel, entry] : j["files"].items()) {
    FileLineMap f;
    f.map.out_to_orig = entry.value("out_to_orig", std::vector<std::uint32_t>{});
    f.map.changed_out_lines = entry.value("changed_out_lines", std::vector<std::uint32_t>{});
    std::sort(f.map.changed_out_lines.begin(), f.map.changed_out_lines.end());
    if (entry.contains("flagged_orig_lines"))
      for (const auto& fl : entry["flagged_orig_lines"])
        f.flagged[fl.at(0).get<std::uint32_t>()].push_back(fl.at(1).get<std::string>());
    maps.files.emplace(rel, std::move(f));
  }
  return maps;
}

LineMaps load_line_maps(const fs::path& tree_root) {
  const fs::path p = tree_root / ".ferry" / "linemaps.json";
  std::error_code ec;
  if (!fs::exists(p, ec)) return {};
  try {
    return line_maps_from_json(project::read_file(p));
  } catch (const std::exception& e) {
    throw std::runtime_error(p.string() + ": unreadable line maps (" + e.what() + "); migrate again");
  }
}

std::optional<std::string> tree_relative(const fs::path& cwd, const std::string& printed, const fs::path& root) {
  fs::path p(printed);
  if (p.is_relative()) p = cwd / p;
  p = p.lexically_normal();
  const fs::path r = root.lexically_normal();
  const fs::path rel = p.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel.generic_string();
}

namespace {

bool line_changed(const ClassifyContext& ctx, const std::string& rel, std::uint32_t out_line) {
  if (!ctx.maps) return false;
  const FileLineMap* m = ctx.maps->find(rel);
  return m && m->map.is_changed(out_line);
}

std::uint32_t original_line(const ClassifyContext& ctx, const std::string& rel, std::uint32_t out_line) {
  const FileLineMap* m = ctx.maps ? ctx.maps->find(rel) : nullptr;
  return m ? m->map.original_line(out_line) : out_line;
}

bool header_in_tree(const ClassifyContext& ctx, const std::string& header) {
  if (!ctx.tree_files) return false;
  const std::string suffix = "/" + header;
  return std::any_of(ctx.tree_files->begin(), ctx.tree_files->end(), [&](const std::string& f) {
    return f == header || (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0);
  });
}

}  // namespace

MappedError map_error(const CompilerError& e, const ClassifyContext& ctx) {
  MappedError m;
  m.raw = e;
  std::optional<std::string> rel = tree_relative(ctx.cwd, e.at.file, ctx.root);
  Origin o;
  if (rel) {
    o.rel = *rel;
    o.out_line = e.at.line;
    o.col = e.at.col;
  } else {
    // The innermost frame of the include chain that lies in the tree.
    for (auto it = e.include_chain.rbegin(); it != e.include_chain.rend(); ++it) {
      if (auto r = tree_relative(ctx.cwd, it->file, ctx.root)) {
        o.rel = *r;
        o.out_line = it->line;
        o.col = it->col;
        o.via_include = true;
        rel = r;
        break;
      }
    }
  }
  if (!rel) return m;  // nothing of it lies in the tree
  o.orig_line = original_line(ctx, o.rel, o.out_line);
  o.changed = line_changed(ctx, o.rel, o.out_line);
  // An include line Ferry wrote that leads to the error, or a note on a line it changed
  // (e.g. "candidate function not viable" on a rewritten declaration), makes it depend on the edit.
  for (const SourceLocation& frame : e.include_chain)
    if (auto r = tree_relative(ctx.cwd, frame.file, ctx.root))
      o.changed = o.changed || line_changed(ctx, *r, frame.line);
  for (const SourceLocation& note : e.notes)
    if (auto r = tree_relative(ctx.cwd, note.file, ctx.root)) o.changed = o.changed || line_changed(ctx, *r, note.line);
  if (ctx.maps)
    if (const FileLineMap* fm = ctx.maps->find(o.rel)) {
      const auto it = fm->flagged.find(o.orig_line);
      if (it != fm->flagged.end()) o.flagged = it->second;
    }
  m.origin = std::move(o);
  return m;
}

void classify(MappedError& e, const ClassifyContext& ctx) {
  const Origin* o = e.origin ? &*e.origin : nullptr;
  if (const auto header = missing_header(e.raw)) {
    e.library = known_missing_library(*header);
    if (!e.library.empty()) {
      e.cls = FailureClass::MissingDependency;
      e.reason = "'" + *header + "' belongs to " + e.library + ", which is not installed";
      return;
    }
    // PyTorch's CUDA headers (ATen/cuda/CUDAContext.h, c10/cuda/CUDAGuard.h) include the CUDA
    // runtime: a HIP build needs PyTorch for ROCm (ATen/hip, c10/hip) instead.
    if (const std::string& f = e.raw.at.file; !ctx.source_is_original && (f.find("/ATen/cuda/") != std::string::npos ||
                                                                          f.find("/c10/cuda/") != std::string::npos)) {
      e.library = "PyTorch for ROCm";
      e.cls = FailureClass::MissingDependency;
      e.reason = "'" + *header + "' is included by PyTorch's CUDA header " + f +
                 ": a HIP build needs PyTorch for ROCm (ATen/hip, c10/hip), which is not installed";
      return;
    }
    if (!header_in_tree(ctx, *header) && !(o && o->changed)) {
      e.cls = FailureClass::MissingDependency;
      e.reason = "'" + *header + "' is neither in the tree nor installed";
      return;
    }
  }
  if (ctx.source_is_original) {
    e.cls = FailureClass::PreExisting;
    e.reason = "the source itself does not compile";
    return;
  }
  const OriginalCheck* orig = ctx.original;
  const bool orig_fails = orig && orig->state == OriginalCheck::State::Fails;
  const bool touched = o && (o->changed || !o->flagged.empty());
  if (orig_fails && o && orig->error_lines.count({o->rel, o->orig_line})) {
    e.cls = FailureClass::PreExisting;
    e.reason = "the original fails on the same line: " + orig->first_error;
    return;
  }
  // nvcc reports an undefined name once per file (`identifier "FIXME" is undefined`); clang at
  // every use. The same name undeclared in the port is the original's error, wherever it is.
  if (orig_fails && o) {
    const QuotedName q = quoted_name(e.raw.message);
    if (!q.name.empty() && q.scope.empty() && e.raw.message.starts_with("use of undeclared identifier") &&
        orig->undefined_names.count(q.name)) {
      e.cls = FailureClass::PreExisting;
      e.reason = "the original fails on the same undeclared name '" + q.name + "': " + orig->first_error;
      return;
    }
  }
  // A header that stands in for cuda.h (FRY1410 anywhere in it): its declarations collide with
  // HIP's, which the migration reported for the whole file.
  if (o && ctx.maps)
    if (const FileLineMap* fm = ctx.maps->find(o->rel))
      for (const auto& [line, codes] : fm->flagged)
        if (std::find(codes.begin(), codes.end(), to_string(Diag::CudaStandInHeader)) != codes.end()) {
          e.cls = FailureClass::Diagnosed;
          e.stand_in = true;
          e.reason = "in a header the migration reported as standing in for cuda.h (FRY1410 at line " +
                     std::to_string(line) + ")";
          return;
        }
  // An error inside rocWMMA's headers in a file where the migration reported a fragment rocWMMA
  // lacks (FRY1401 at its declaration: `fragment<..., unsigned char>` has no block): the error
  // surfaces where the fragment is used (mma_sync's instantiation), not where it was reported.
  if (o && ctx.maps && e.raw.at.file.find("rocwmma/") != std::string::npos)
    if (const FileLineMap* fm = ctx.maps->find(o->rel))
      for (const auto& [line, codes] : fm->flagged)
        if (std::find(codes.begin(), codes.end(), to_string(Diag::WmmaRocwmmaLacks)) != codes.end()) {
          e.cls = FailureClass::Diagnosed;
          e.reason =
              "inside rocWMMA, in a file where the migration reported a fragment rocWMMA lacks (FRY1401 at line " +
              std::to_string(line) + ")";
          return;
        }
  // The migration said at this line that it could not port something: a known, reported gap.
  if (o) {
    std::string codes;
    for (const std::string& c : o->flagged)
      if (reports_not_migrated(c) && codes.find(c) == std::string::npos) codes += (codes.empty() ? "" : ", ") + c;
    if (!codes.empty()) {
      e.cls = FailureClass::Diagnosed;
      e.reason = "the migration reported it at this line: " + codes;
      return;
    }
  }
  // A name or member the target's release lacks, by the version model (whether or not the line
  // was changed: the error is about that name, which Ferry could not give).
  if (ctx.gaps) {
    const QuotedName q = quoted_name(e.raw.message);
    const std::string* why = nullptr;
    if (!q.name.empty() && !q.scope.empty()) {
      const auto it = ctx.gaps->members.find({q.scope, q.name});
      if (it != ctx.gaps->members.end()) why = &it->second;
    } else if (!q.name.empty()) {
      const auto it = ctx.gaps->names.find(q.name);
      if (it != ctx.gaps->names.end()) why = &it->second;
    }
    if (why) {
      e.cls = FailureClass::TargetGap;
      e.reason = "'" + q.name + "': " + *why + " (not reported at this line by the migration)";
      return;
    }
  }
  // A builtin the architecture verified for lacks (`'__builtin_amdgcn_mfma_f32_16x16x16f16' needs
  // target feature mai-insts`: gfx906 has no matrix cores, reached through rocWMMA): the --arch's
  // gap, whatever line led there.
  if (e.raw.message.find("needs target feature") != std::string::npos) {
    e.cls = FailureClass::TargetGap;
    e.reason = "the architecture verified for lacks this instruction (" + e.raw.message +
               "): verify for one that has it (--arch gfx90a for MFMA), or keep this code for those";
    return;
  }
  if (touched) {
    e.cls = FailureClass::MigrationDefect;
    if (o->changed)
      e.reason = o->via_include ? "raised in a header reached through an #include line Ferry changed"
                                : "on a line Ferry changed";
    else e.reason = "on a line migrate flagged";
    if (!o->flagged.empty()) {
      e.reason += " (";
      for (std::size_t i = 0; i < o->flagged.size(); ++i) e.reason += (i ? ", " : "") + o->flagged[i];
      e.reason += ")";
    }
    return;
  }
  if (orig_fails) {
    e.cls = FailureClass::PreExisting;
    e.reason = "on a line Ferry left alone, and the original does not compile either: " + orig->first_error;
    return;
  }
  e.cls = FailureClass::Unknown;
  if (!o) e.reason = "outside the tree and not reached through a line Ferry changed";
  else if (orig && orig->state == OriginalCheck::State::Compiles)
    e.reason = "on a line Ferry left alone, and the original compiles";
  else
    e.reason = "on a line Ferry left alone; the original was not checked" +
               (orig && !orig->note.empty() ? " (" + orig->note + ")" : std::string());
}

FailureClass unit_class(const std::vector<MappedError>& errors) {
  if (errors.empty()) return FailureClass::Unknown;
  // The first error lies in a header that stands in for cuda.h: what follows in the unit (the
  // loader's definitions, calls to its own wrappers) can only be judged once it is ported.
  if (errors.front().stand_in) return FailureClass::Diagnosed;
  for (FailureClass c : {FailureClass::MigrationDefect, FailureClass::MissingDependency, FailureClass::PreExisting,
                         FailureClass::Diagnosed, FailureClass::TargetGap})
    if (std::any_of(errors.begin(), errors.end(), [c](const MappedError& e) { return e.cls == c; })) return c;
  return FailureClass::Unknown;
}

bool only_missing_headers(const std::vector<CompilerError>& errors) {
  return !errors.empty() && std::all_of(errors.begin(), errors.end(),
                                        [](const CompilerError& e) { return missing_header(e).has_value(); });
}

}  // namespace ferry::verify
