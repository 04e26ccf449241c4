#include "migrate/migrate_tree.h"

#include "project/json_file.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/memory.h"
#include "lex/code_view.h"
#include "migrate/line_maps.h"
#include "migrate/rounds.h"

namespace fs = std::filesystem;

namespace ferry::migrate {

namespace {

// FNV-1a, 64 bits. Every file of a tree is hashed once or twice (the manifest, and the text the
// pre-passes read): eight bytes a step, the same hash with an eighth of the loop's overhead.
std::uint64_t fnv1a(std::string_view data) {
  constexpr std::uint64_t kPrime = 1099511628211ull;
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t n = data.size();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ p[i]) * kPrime;
    h = (h ^ p[i + 1]) * kPrime;
    h = (h ^ p[i + 2]) * kPrime;
    h = (h ^ p[i + 3]) * kPrime;
    h = (h ^ p[i + 4]) * kPrime;
    h = (h ^ p[i + 5]) * kPrime;
    h = (h ^ p[i + 6]) * kPrime;
    h = (h ^ p[i + 7]) * kPrime;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * kPrime;
  return h;
}

std::string hex16(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

std::string content_hash(std::string_view data) { return hex16(fnv1a(data)); }

namespace {

// For `ferry verify`: per migrated file, output line -> original line, the output lines an edit
// touched, and the original lines that got a diagnostic (docs/verify.md).
constexpr const char* kLineMaps = ".ferry/linemaps.json";

void check_output_location(const TreeOptions& tree) {
  if (project::is_within(tree.output, tree.input))
    throw TreeError("output folder " + tree.output.string() + " lies inside the input " + tree.input.string() +
                    ": choose an output outside the input tree");
  if (project::is_within(tree.input, tree.output))
    throw TreeError("input " + tree.input.string() + " lies inside the output folder " + tree.output.string() +
                    ": choose another output folder");
}

}  // namespace

TreeResult migrate_tree(const targets::Target& target, const targets::Options& options, const TreeOptions& tree) {
  const auto t0 = std::chrono::steady_clock::now();
  check_output_location(tree);
  const std::string arch = tree.arch.empty() ? std::string(target.info().default_profile) : tree.arch;
  project::WalkOptions wo;
  wo.max_file_size = tree.max_file_size;
  wo.exclude_dirs.push_back(tree.output);
  project::Walk walk = project::walk_tree(tree.input, wo);

  // Refuse to clobber a non-empty OUT that Ferry did not write. Outputs edited by hand are not
  // refused any more: rounds merge them (docs/rounds.md); --force discards them.
  std::error_code ec;

  TreeResult result;
  result.diagnostics = std::move(walk.problems);

  // Which files are sources (read_source's checks); their texts are read again when needed and
  // not held: the pre-passes read one file at a time (SourceView::read), the migration loop reads
  // each file when it migrates it, so a tree's memory does not grow with its texts. An item is
  // kept small (it lives through the whole tree): its report is made when the loop starts
  // (`reports`, one per item, the same index), and its path is the walk's.
  struct Item {
    const project::ProjectFile* file;
    bool source = false;  // migrated (else copied, or a build file)
    // The content hash of the text the pre-passes read first: the plan's byte offsets (the wave64
    // fixes) hold for that text only, so a file that changed since is not migrated.
    bool prepared = false;
    std::uint64_t prepared_hash = 0;
  };
  std::vector<Item> items;
  items.reserve(walk.files.size());
  std::vector<targets::SourceView> views;
  std::size_t sources = 0;
  for (const project::ProjectFile& f : walk.files) {
    Item it{&f};
    if (target.migrates(f.kind)) {
      project::TextRead read = project::read_source(f.abs(walk.root), f.rel, tree.max_file_size);
      for (auto& d : read.problems) result.diagnostics.push_back(std::move(d));
      it.source = read.text.has_value();
      sources += it.source ? 1 : 0;
    }
    items.push_back(it);
  }
  views.reserve(sources);
  for (Item& it : items)
    if (it.source)
      views.push_back({it.file->rel, {}, nullptr, [&it, &walk] {
                         std::string text = project::read_file(it.file->abs(walk.root));
                         if (!it.prepared) {
                           it.prepared_hash = fnv1a(text);
                           it.prepared = true;
                         }
                         return text;
                       }});
  targets::ProjectContext project_ctx;
  // The way back of a round trip (the input is Ferry's output for another target): a file the way
  // there wrote as it read it was the original's text already (a HIP build file or header kept in
  // a CUDA tree), so it is copied as it is, unless it was edited since. rel -> its content hash.
  std::map<std::string, std::string> kept_by_way_there;
  if (const nlohmann::json m = project::read_json_or_null(tree.input / ".ferry" / "manifest.json");
      m.is_object() && m.contains("target") && m["target"].is_string()) {
    project_ctx.migrated_by = m["target"].get<std::string>();
    if (project_ctx.migrated_by != target.name() && m.contains("files") && m["files"].is_object())
      for (const auto& [rel, e] : m["files"].items()) {
        if (!e.is_object() || !e.contains("input_hash") || !e["input_hash"].is_string()) continue;
        const std::string in = e["input_hash"].get<std::string>();
        if (e.value("generated", std::string()) == in && e.value("output_hash", std::string()) == in)
          kept_by_way_there.emplace(rel, in);
      }
  }
  target.prepare_project(views, project_ctx);
  give_back_free_memory();  // what the pre-passes dropped (their per-file facts), before the loop
  std::vector<targets::SourceView>().swap(views);  // the pre-passes are done with them
  buildsys::Options build_options;
  build_options.arch = arch;
  build_options.facts = project_ctx.build_facts;

  std::unique_ptr<rounds::Session> session;
  try {
    session = std::make_unique<rounds::Session>(
        tree.output, rounds::fingerprint(target, options, project_ctx, "arch=" + arch), tree.force);
  } catch (const std::runtime_error& e) {
    throw TreeError(e.what());
  }
  if (!session->has_manifest() && fs::exists(tree.output, ec) && !fs::is_empty(tree.output, ec) && !tree.force)
    throw TreeError(tree.output.string() +
                    " exists, is not empty and holds no Ferry manifest: refusing to write into it "
                    "(use --force, or choose an empty or new folder)");
  {
    std::vector<std::string> rels;
    for (const Item& it : items) rels.push_back(it.file->rel);
    session->begin(rels);
  }
  const PreviousLineMaps prev_line_maps(tree.output / kLineMaps);  // skipped files keep last round's maps

  nlohmann::json new_manifest;
  new_manifest["version"] = 1;
  new_manifest["target"] = std::string(target.name());
  new_manifest["input"] = fs::absolute(tree.input).lexically_normal().string();
  // What the next round needs to run the same migration again (`ferry serve` re-runs rounds).
  // The target's own options are kept by name, resolved (defaults filled in).
  nlohmann::json target_options = nlohmann::json::object();
  for (const targets::OptionSpec& o : target.info().options)
    target_options[std::string(o.name)] = target.option(o.name);
  new_manifest["options"] = {{"target_options", std::move(target_options)},
                             {"rules", options.user_rule_files},
                             {"cwd", fs::current_path().string()},
                             {"arch", tree.arch},
                             {"max_file_size", tree.max_file_size}};
  // Each file's entry of .ferry/linemaps.json, serialized as soon as the file is done and
  // spooled to a temporary file: a tree's maps are not held in memory.
  LineMapSpool line_maps;
  // Each item's report (its path is moved in from the walk when the tree is done).
  std::vector<FileReport> reports;
  reports.reserve(items.size());
  for (const Item& it : items) reports.push_back({{}, it.file->kind, "copied", {}, 0});

  std::mutex mu;
  std::atomic<std::size_t> next{0};
  std::vector<std::string> errors;
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= items.size()) return;
      Item& it = items[i];
      FileReport& report = reports[i];
      try {
        std::string text = project::read_file(it.file->abs(walk.root));  // a source's text, else the file as it is
        std::string out;
        std::vector<Diagnostic> diags;
        const std::uint64_t in_hash_value = fnv1a(text);
        const std::string in_hash = hex16(in_hash_value);
        if (auto prev = session->unchanged(it.file->rel, in_hash)) {
          report.action = "unchanged";
          report.diagnostics = prev->diagnostics.size();
          std::lock_guard lock(mu);
          result.bytes_in += it.file->size;
          if (const std::optional<std::string> map = prev_line_maps.entry(it.file->rel))
            line_maps.add(it.file->rel, *map);
          for (auto& d : prev->diagnostics) result.diagnostics.push_back(std::move(d));
          if (tree.on_file_done) tree.on_file_done(it.file->size);
          continue;
        }
        if (auto kept = kept_by_way_there.find(it.file->rel);
            kept != kept_by_way_there.end() && kept->second == in_hash) {
          out = std::move(text);  // the original's text (see kept_by_way_there)
        } else if (it.source) {
          if (it.prepared && it.prepared_hash != in_hash_value)
            throw std::runtime_error(it.file->rel + " changed while the tree was migrated: migrate again");
          FileResult r = migrate_buffer(it.file->rel, text, target, options, project_ctx);
          out = std::move(r.output);
          for (const SideOutput& side : r.side_outputs)  // e.g. the cann target's kernel skeletons
            project::write_atomically((tree.output / it.file->rel).parent_path() / side.name, side.content);
          diags = std::move(r.diagnostics);
          report.stats = std::move(r.stats);
          report.action = "migrated";
          nlohmann::json flagged = nlohmann::json::array();
          for (const Diagnostic& d : diags)
            if (d.line > 0)
              for (std::uint32_t l = d.line; l <= std::max(d.line, d.end_line); ++l)
                flagged.push_back({l, to_string(d.code)});
          std::string map = nlohmann::json{{"out_to_orig", std::move(r.line_map.out_to_orig)},
                                           {"changed_out_lines", std::move(r.line_map.changed_out_lines)},
                                           {"flagged_orig_lines", std::move(flagged)}}
                                .dump();
          std::lock_guard lock(mu);
          line_maps.add(it.file->rel, map);
        } else if (auto b = target.migrate_build_file(it.file->rel, it.file->kind, text, build_options)) {
          out = std::move(b->output);
          diags = std::move(b->diagnostics);
          report.action = "migrated";
        } else {
          out = std::move(text);
        }
        std::string().swap(text);  // the output is what is still needed
        rounds::Commit c = session->commit(it.file->rel, it.file->kind, in_hash, out, report.action, diags);
        if (c.action != "migrated" && c.action != "copied") report.action = c.action;
        for (auto& d : c.diagnostics) diags.push_back(std::move(d));
        report.diagnostics = diags.size();
        std::lock_guard lock(mu);
        result.bytes_in += it.file->size;
        for (auto& d : diags) result.diagnostics.push_back(std::move(d));
        if (tree.on_file_done) tree.on_file_done(it.file->size);
      } catch (const std::exception& e) {
        std::lock_guard lock(mu);
        errors.push_back(e.what());
        report.action = "skipped";
        result.diagnostics.push_back({Diag::Unreadable, Severity::Error, it.file->rel, 0, 0, e.what(),
                                      "check permissions and free space of the output folder"});
        if (tree.on_file_done) tree.on_file_done(it.file->size);
      }
    }
  };
  const unsigned jobs = std::max(1u, std::min<unsigned>(tree.jobs, static_cast<unsigned>(items.size())));
  if (tree.on_start) {
    std::uintmax_t bytes = 0;
    for (const Item& it : items) bytes += it.file->size;
    tree.on_start(items.size(), bytes);
  }
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  line_maps.write(tree.output / kLineMaps);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.round = session->finish(new_manifest, result.diagnostics, result.seconds);              // manifest last
  for (std::size_t i = 0; i < items.size(); ++i) reports[i].rel = std::move(walk.files[i].rel);  // walk done
  result.files = std::move(reports);
  sort_diagnostics(result.diagnostics);
  return result;
}

}  // namespace ferry::migrate
