// The TensorFlow → NPU adapter rules as data: rules/tf2npu/*.tsv (tf, npu, action, args, note, tf
// majors) and the adapter's API facts rules/tf_npu/api.tsv (name, kind, params), both embedded at
// build time (docs/targets.md#tf_npu).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "targets/python_api.h"

namespace ferry::targets::tf_npu {

enum class Action { Rename, Args, Wrap, Replace, Remove, Import, Manual };

struct Row {
  std::string tf;   // canonical TensorFlow name, ".method" or "=.attribute"
  std::string npu;  // a name, an expression (replace), an import line (import) or "" for `-`
  Action action = Action::Rename;
  std::vector<ArgOp> ops;
  std::string wrap_param;  // Wrap: the parameter of npu the call is passed as
  std::string note;        // "" for `-`
  bool diff = false;       // the note starts with "diff:" (FRY4720)
  std::string family;      // the file's stem: estimator, session, horovod, ops, data, gpu, precision
  std::string where;       // "tf2npu/session.tsv:12"
};

class Tables {
 public:
  // The embedded tables, with the rows for TensorFlow major `major` (1 or 2).
  [[nodiscard]] static const Tables& builtin(int major);
  static Tables from_text(const std::vector<std::pair<std::string, std::string_view>>& rule_files,
                          std::string_view api_text, int major);

  [[nodiscard]] const Row* find(std::string_view tf) const;
  [[nodiscard]] const ApiEntry* api(std::string_view name) const;
  [[nodiscard]] const std::map<std::string, Row, std::less<>>& rows() const { return rows_; }
  [[nodiscard]] const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::map<std::string, Row, std::less<>> rows_;
  std::map<std::string, ApiEntry, std::less<>> api_;
  std::vector<std::string> problems_;
};

// The canonical spelling of a qualified TensorFlow / Keras / Horovod name: tensorflow → tf,
// tf.compat.v1 / tf.compat.v2 → tf, keras → tf.keras, horovod.tensorflow[.keras] → hvd.
[[nodiscard]] std::string canonical(std::string_view qualified);

}  // namespace ferry::targets::tf_npu
