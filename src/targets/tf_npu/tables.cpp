#include "targets/tf_npu/tables.h"

#include <algorithm>
#include <cctype>

#include "core/split.h"
#include "core/text.h"
#include "pyparse/imports.h"
#include "rules/builtin.h"

namespace ferry::targets::tf_npu {
Tables Tables::from_text(const std::vector<std::pair<std::string, std::string_view>>& rule_files,
                         std::string_view api_text, int major) {
  Tables t;
  read_api_table(api_text, "tf_npu/api.tsv", t.api_, t.problems_);
  for (const auto& [path, text] : rule_files) {
    std::string family = path.substr(path.rfind('/') + 1);
    family = family.substr(0, family.find('.'));
    int no = 0;
    for (std::string_view line : split(text, '\n')) {
      ++no;
      if (line.empty() || line.front() == '#') continue;
      const std::string where = path + ":" + std::to_string(no);
      const std::vector<std::string_view> f = split(line, '\t');
      if (f.size() != 6) {
        t.problems_.push_back(where + ": expected 6 TAB-separated fields");
        continue;
      }
      const std::string_view majors = trim(f[5]);
      if (majors != "*" && majors != std::to_string(major)) continue;
      Row r;
      r.tf = std::string(trim(f[0]));
      r.npu = trim(f[1]) == "-" ? std::string() : std::string(trim(f[1]));
      const std::string_view action = trim(f[2]);
      if (action == "rename") r.action = Action::Rename;
      else if (action == "args") r.action = Action::Args;
      else if (action == "wrap") r.action = Action::Wrap;
      else if (action == "replace") r.action = Action::Replace;
      else if (action == "remove") r.action = Action::Remove;
      else if (action == "import") r.action = Action::Import;
      else if (action == "manual") r.action = Action::Manual;
      else {
        t.problems_.push_back(where + ": unknown action '" + std::string(action) + "'");
        continue;
      }
      std::string error;
      if (r.action == Action::Wrap) r.wrap_param = std::string(trim(f[3]));
      else r.ops = parse_arg_ops(f[3], &error);
      if (!error.empty()) t.problems_.push_back(where + ": " + error);
      r.note = trim(f[4]) == "-" ? std::string() : std::string(trim(f[4]));
      if (r.note.rfind("diff:", 0) == 0) {
        r.diff = true;
        r.note = std::string(trim(std::string_view(r.note).substr(5)));
      }
      if ((r.action == Action::Rename || r.action == Action::Wrap || r.action == Action::Replace ||
           r.action == Action::Import) &&
          r.npu.empty())
        t.problems_.push_back(where + ": action needs an npu column");
      r.family = family;
      r.where = where;
      if (t.rows_.count(r.tf)) {
        t.problems_.push_back(where + ": duplicate row for " + r.tf);
        continue;
      }
      t.rows_.emplace(r.tf, std::move(r));
    }
  }
  return t;
}

const Tables& Tables::builtin(int major) {
  static const auto load = [](int m) {
    std::vector<std::pair<std::string, std::string_view>> files;
    for (const rules::EmbeddedTable& e : rules::builtin_tables())
      if (e.path.rfind("tf2npu/", 0) == 0) files.emplace_back(std::string(e.path), e.text);
    std::sort(files.begin(), files.end());
    return from_text(files, rules::builtin_table("tf_npu/api.tsv"), m);
  };
  static const Tables one = load(1), two = load(2);
  return major >= 2 ? two : one;
}

const Row* Tables::find(std::string_view tf) const {
  auto it = rows_.find(tf);
  return it == rows_.end() ? nullptr : &it->second;
}

const ApiEntry* Tables::api(std::string_view name) const {
  auto it = api_.find(name);
  return it == api_.end() ? nullptr : &it->second;
}

std::string canonical(std::string_view q) { return pyparse::canonical_tensorflow_name(q); }

}  // namespace ferry::targets::tf_npu
