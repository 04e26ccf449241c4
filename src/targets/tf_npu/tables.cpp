#include "targets/tf_npu/tables.h"

#include <algorithm>
#include <cctype>

#include "core/split.h"
#include "core/text.h"
#include "pyparse/imports.h"
#include "rules/builtin.h"

namespace ferry::targets::tf_npu {
namespace {

bool positional_ref(std::string_view s, int* n) {
  if (s.size() < 2 || s[0] != '@') return false;
  for (char c : s.substr(1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  *n = std::stoi(std::string(s.substr(1)));
  return true;
}

}  // namespace

std::vector<ArgOp> parse_arg_ops(std::string_view text, std::string* error) {
  std::vector<ArgOp> out;
  text = trim(text);
  if (text.empty() || text == "-") return out;
  for (std::string_view part : split(text, ';')) {
    part = trim(part);
    if (part.empty()) continue;
    ArgOp op;
    bool ok = false;
    int pos = -1;
    if (const std::size_t set = part.find(":="); set != std::string_view::npos) {
      const std::string_view lhs = part.substr(0, set);
      op.to = std::string(part.substr(set + 2));
      if (positional_ref(lhs, &pos)) {
        op.kind = ArgOp::Kind::SetPositional;
        op.position = pos;
        ok = !op.to.empty();
      } else {
        op.kind = ArgOp::Kind::Set;
        op.from = std::string(lhs);
        ok = is_identifier(op.from) && !op.to.empty();
      }
    } else if (part.front() == '+') {
      const std::size_t eq = part.find('=');
      if (eq != std::string_view::npos) {
        op.kind = ArgOp::Kind::Add;
        op.optional = part.size() > 1 && part[1] == '?';
        op.from = std::string(part.substr(op.optional ? 2 : 1, eq - (op.optional ? 2 : 1)));
        op.to = std::string(part.substr(eq + 1));
        ok = is_identifier(op.from) && !op.to.empty();
      }
    } else if (const std::size_t pct = part.find('%'); pct != std::string_view::npos) {
      op.kind = ArgOp::Kind::WrapKeyword;
      op.from = std::string(part.substr(0, pct));
      const std::string_view target = part.substr(pct + 1);
      const std::size_t dot = target.rfind('.');
      if (dot != std::string_view::npos) {
        op.func = std::string(target.substr(0, dot));
        op.param = std::string(target.substr(dot + 1));
        ok = is_identifier(op.from) && is_identifier(op.param) && !op.func.empty();
      }
    } else if (const std::size_t arrow = part.find("->"); arrow != std::string_view::npos) {
      const std::string_view lhs = part.substr(0, arrow);
      op.to = std::string(part.substr(arrow + 2));
      if (positional_ref(lhs, &pos)) {
        op.kind = ArgOp::Kind::Positional;
        op.position = pos;
      } else {
        op.kind = ArgOp::Kind::Rename;
        op.from = std::string(lhs);
      }
      ok = is_identifier(op.to) && (pos >= 0 || is_identifier(op.from));
    } else if (part.size() > 5 && part.substr(part.size() - 5) == "=drop") {
      const std::string_view lhs = part.substr(0, part.size() - 5);
      if (positional_ref(lhs, &pos)) {
        op.kind = ArgOp::Kind::DropPositional;
        op.position = pos;
        ok = true;
      } else {
        op.kind = ArgOp::Kind::Drop;
        op.from = std::string(lhs);
        ok = is_identifier(op.from);
      }
    }
    if (!ok) {
      if (error) *error += "malformed argument operation '" + std::string(part) + "'; ";
      continue;
    }
    out.push_back(std::move(op));
  }
  return out;
}

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
