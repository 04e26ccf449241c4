#include "targets/mindspore/mapping.h"

#include <algorithm>
#include <mutex>

#include "core/split.h"
#include "core/text.h"
#include "rules/builtin.h"

namespace ferry::targets::mindspore {
namespace {

constexpr std::string_view kSetTrain[] = {"mode"};
constexpr std::string_view kValueAndGrad[] = {"has_aux"};
constexpr std::string_view kGenerator[] = {"column_names", "shuffle", "num_parallel_workers"};
constexpr std::string_view kBatch[] = {"drop_remainder"};
constexpr std::string_view kSetContext[] = {"device_target"};
constexpr std::string_view kParallel[] = {"parallel_mode", "gradients_mean"};
constexpr std::string_view kLossScaler[] = {"scale_value", "scale_factor", "scale_window"};
constexpr std::string_view kNone[] = {""};

// Every name the passes of targets/mindspore/ write without a table row (convert.cpp spells them
// through emit(), which asserts membership here).
constexpr EmittedName kPassNames[] = {
    {"mindspore", {}},
    {"mindspore.nn", {}},
    {"mindspore.ops", {}},
    {"mindspore.dataset", {}},
    {"mindspore.value_and_grad", kValueAndGrad},
    {"mindspore.nn.Optimizer.parameters", {}},
    {"mindspore.nn.Cell.set_train", kSetTrain},
    {"mindspore.nn.Cell.construct", {}},
    {"mindspore.nn.Cell", {}},  // the base of a subclassed Keras Model or Layer
    {"mindspore.dataset.GeneratorDataset", kGenerator},
    {"mindspore.dataset.GeneratorDataset.batch", kBatch},
    {"mindspore.set_context", kSetContext},
    {"mindspore.set_device", {}},
    {"mindspore.hal.is_available", {}},
    {"mindspore.save_checkpoint", {}},
    {"mindspore.load_checkpoint", {}},
    {"mindspore.load_param_into_net", {}},
    {"mindspore.Tensor.astype", {}},
    {"mindspore.ops.stop_gradient", {}},
    {"mindspore.ops.clip_by_global_norm", {}},
    {"mindspore.Tensor.shape", {}},
    // the mixed-precision training step (FRY4750)
    {"mindspore.amp", {}},
    {"mindspore.amp.auto_mixed_precision", {}},
    {"mindspore.amp.DynamicLossScaler", kLossScaler},
    {"mindspore.amp.DynamicLossScaler.scale", {}},
    {"mindspore.amp.DynamicLossScaler.unscale", {}},
    {"mindspore.amp.DynamicLossScaler.adjust", {}},
    {"mindspore.amp.all_finite", {}},
    // DistributedDataParallel (FRY4751)
    {"mindspore.set_auto_parallel_context", kParallel},
};

}  // namespace

Tables Tables::from_text(const std::vector<std::pair<std::string, std::string_view>>& mapping_files,
                         std::string_view api_text) {
  Tables t;
  std::map<std::string, bool, std::less<>> from_core;
  for (const auto& [path, text] : mapping_files) {
    const bool core = path.size() >= 8 && path.substr(path.size() - 8) == "core.tsv";
    std::size_t no = 0;
    for (std::string_view line : split_lines(text)) {
      ++no;
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
      if (trim(line).empty() || line.front() == '#') continue;
      const std::string where = path + ":" + std::to_string(no);
      const std::vector<std::string_view> f = split(line, '\t');
      if (f.size() != 5) {
        t.problems_.push_back(where + ": expected 5 TAB-separated fields, got " + std::to_string(f.size()));
        continue;
      }
      Mapping m;
      m.torch = std::string(trim(f[0]));
      m.ms = trim(f[1]) == "-" ? "" : std::string(trim(f[1]));
      const std::string_view st = trim(f[2]);
      if (st == "same") m.status = Status::Same;
      else if (st == "diff") m.status = Status::Diff;
      else if (st == "unsupported") m.status = Status::Unsupported;
      else {
        t.problems_.push_back(where + ": status '" + std::string(st) + "' is not same, diff or unsupported");
        continue;
      }
      std::string err;
      m.ops = parse_arg_ops(f[3], &err);
      for (const ArgOp& op : m.ops)
        if (op.optional || (op.kind != ArgOp::Kind::Rename && op.kind != ArgOp::Kind::Drop &&
                            op.kind != ArgOp::Kind::Add && op.kind != ArgOp::Kind::Positional))
          err += "an operation the mindspore target does not apply; ";
      if (!err.empty()) t.problems_.push_back(where + ": args: " + err);
      m.note = trim(f[4]) == "-" ? "" : std::string(trim(f[4]));
      m.where = where;
      // tf2mindspore/ rows hold canonical TensorFlow names (tf.keras.layers.Dense)
      const bool tf_row = path.rfind("tf2mindspore/", 0) == 0;
      if (m.torch.rfind(tf_row ? "tf." : "torch", 0) != 0)
        t.problems_.push_back(where + ": '" + m.torch + "' is not a " + (tf_row ? "TensorFlow" : "torch") + " name");
      auto it = t.rows_.find(m.torch);
      if (it != t.rows_.end()) {
        if (core && !from_core[m.torch]) {
          it->second = std::move(m);
          from_core[it->first] = true;
        } else if (!from_core[m.torch] || core) {
          t.duplicates_.push_back(where + ": " + m.torch + " (first at " + it->second.where + ")");
        }
        continue;
      }
      from_core[m.torch] = core;
      t.rows_.emplace(m.torch, std::move(m));
    }
  }
  read_api_table(api_text, "mindspore/api.tsv", t.api_, t.problems_);
  return t;
}

const Tables& Tables::builtin() {
  static const Tables tables = [] {
    std::vector<std::pair<std::string, std::string_view>> files;
    for (const rules::EmbeddedTable& e : rules::builtin_tables())
      if (e.path.rfind("torch2mindspore/", 0) == 0 || e.path.rfind("tf2mindspore/", 0) == 0)
        files.emplace_back(std::string(e.path), e.text);
    std::sort(files.begin(), files.end());
    return from_text(files, rules::builtin_table("mindspore/api.tsv"));
  }();
  return tables;
}

const Mapping* Tables::find(std::string_view torch) const {
  auto it = rows_.find(torch);
  return it == rows_.end() ? nullptr : &it->second;
}

const ApiEntry* Tables::api(std::string_view name) const {
  auto it = api_.find(name);
  return it == api_.end() ? nullptr : &it->second;
}

std::span<const EmittedName> pass_emitted_names() { return kPassNames; }

}  // namespace ferry::targets::mindspore
