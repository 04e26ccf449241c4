#include "pyparse/imports.h"

namespace ferry::pyparse {

bool module_under(std::string_view q, std::string_view p) {
  return q == p || (q.size() > p.size() && q.rfind(p, 0) == 0 && q[p.size()] == '.');
}

void Imports::collect(const Tree& t, int n, const Owned& owned) {
  const std::string_view ty = t.type(n);
  if (ty == "import_statement") {
    ImportStmt st{n, {}};
    for (int c : t.children(n)) {
      if (t.at(c).field != "name") continue;
      std::string q, alias;
      if (t.type(c) == "aliased_import") {
        q = std::string(t.text(t.child(c, "name")));
        alias = std::string(t.text(t.child(c, "alias")));
      } else {
        q = std::string(t.text(c));
        alias = q.substr(0, q.find('.'));
        q = alias;  // `import torch.nn` binds torch
      }
      if (!owned(q)) {
        other_bindings.insert(alias);
        if (!st.aliases.empty() || owned(t.text(c))) st.aliases.push_back("");
        continue;
      }
      aliases[alias] = q;
      st.aliases.push_back(alias);
    }
    if (!st.aliases.empty()) statements.push_back(st);
    return;
  }
  if (ty == "import_from_statement") {
    const int mod = t.child(n, "module_name");
    if (mod < 0 || t.type(mod) != "dotted_name" || !owned(t.text(mod))) {
      for (int c : t.children(n)) {
        if (t.at(c).field != "name") continue;
        const int bound = t.type(c) == "aliased_import" ? t.child(c, "alias") : c;
        other_bindings.insert(std::string(t.text(bound)));
      }
      return;
    }
    ImportStmt st{n, {}};
    for (int c : t.children(n)) {
      if (t.at(c).field != "name") continue;
      std::string name, alias;
      if (t.type(c) == "aliased_import") {
        name = std::string(t.text(t.child(c, "name")));
        alias = std::string(t.text(t.child(c, "alias")));
      } else {
        name = std::string(t.text(c));
        alias = name;
      }
      aliases[alias] = std::string(t.text(mod)) + "." + name;
      st.aliases.push_back(alias);
    }
    for (int c : t.children(n))
      if (t.type(c) == "wildcard_import") st.aliases.push_back("*");
    statements.push_back(st);
    return;
  }
  for (int c : t.children(n)) collect(t, c, owned);
}

std::string Imports::resolve(const Tree& t, int n) const {
  if (n < 0) return {};
  if (t.type(n) == "identifier") {
    auto it = aliases.find(std::string(t.text(n)));
    return it == aliases.end() ? std::string() : it->second;
  }
  if (t.type(n) == "attribute") {
    const std::string base = resolve(t, t.child(n, "object"));
    if (base.empty()) return {};
    return base + "." + std::string(t.text(t.child(n, "attribute")));
  }
  return {};
}

std::string Imports::head_alias(const Tree& t, int n) {
  while (t.type(n) == "attribute") n = t.child(n, "object");
  return t.type(n) == "identifier" ? std::string(t.text(n)) : std::string();
}

std::string canonical_tensorflow_name(std::string_view q) {
  std::string s(q);
  const auto swap_prefix = [&s](std::string_view from, std::string_view to) {
    if (!module_under(s, from)) return false;
    s = std::string(to) + s.substr(from.size());
    return true;
  };
  if (!swap_prefix("horovod.tensorflow.keras", "hvd") && !swap_prefix("horovod.tensorflow", "hvd"))
    swap_prefix("horovod.keras", "hvd");
  swap_prefix("tensorflow", "tf");
  if (!swap_prefix("tf.compat.v1", "tf")) swap_prefix("tf.compat.v2", "tf");
  swap_prefix("tf.python.keras", "tf.keras");
  swap_prefix("keras", "tf.keras");
  return s;
}

}  // namespace ferry::pyparse
