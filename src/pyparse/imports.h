// The imports of one Python file, read from its tree: which local names are bound to the modules a
// target converts (`import torch.nn as nn`, `from tensorflow import keras as K`, `import horovod.
// tensorflow as hvd`), so that a reference resolves to its qualified name however it is spelled.
// Shared by the Python targets (targets/mindspore, targets/tf_npu).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pyparse/tree.h"

namespace ferry::pyparse {

// One import statement that binds at least one owned name.
struct ImportStmt {
  int node = -1;
  // The names it binds, in order: an owned alias, "" for a name bound to another module in the
  // same statement (`import torch, os`), "*" for a wildcard.
  std::vector<std::string> aliases;
};

struct Imports {
  // True for the qualified module names the target converts ("torch", "torch.nn", ...).
  using Owned = std::function<bool(std::string_view)>;

  std::map<std::string, std::string> aliases;  // local name -> qualified name ("F" -> "torch.nn.functional")
  std::vector<ImportStmt> statements;          // the statements that bind owned names
  std::set<std::string> other_bindings;        // local names some import binds to another module

  // Reads every import statement under `root` (nested ones too).
  void collect(const Tree& t, int root, const Owned& owned);
  // The qualified name a reference (identifier or attribute chain) resolves to, or "".
  [[nodiscard]] std::string resolve(const Tree& t, int n) const;
  // The identifier an attribute chain starts with ("nn" for nn.functional.relu), or "".
  [[nodiscard]] static std::string head_alias(const Tree& t, int n);
};

// The canonical spelling of a TensorFlow, Keras or Horovod name: tensorflow → tf, tf.compat.v1 /
// tf.compat.v2 → tf, tensorflow.python.keras and standalone keras → tf.keras, horovod.tensorflow
// [.keras] and horovod.keras → hvd. Other names come back as they are.
[[nodiscard]] std::string canonical_tensorflow_name(std::string_view qualified);

// `module` is `prefix` or lies under it ("torch.nn" under "torch").
[[nodiscard]] bool module_under(std::string_view module, std::string_view prefix);

}  // namespace ferry::pyparse
