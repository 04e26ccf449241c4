#include "pyparse/tree.h"

#if FERRY_HAVE_PYTHON_PARSER
#include <tree_sitter/api.h>
extern "C" const TSLanguage* tree_sitter_python();
#endif

namespace ferry::pyparse {

int Tree::child(int i, std::string_view field) const {
  for (int c = at(i).first_child; c >= 0; c = at(c).next_sibling)
    if (at(c).field == field) return c;
  return -1;
}

std::vector<int> Tree::children(int i) const {
  std::vector<int> out;
  for (int c = at(i).first_child; c >= 0; c = at(c).next_sibling) out.push_back(c);
  return out;
}

std::vector<int> Tree::named_children(int i) const {
  std::vector<int> out;
  for (int c = at(i).first_child; c >= 0; c = at(c).next_sibling)
    if (at(c).named) out.push_back(c);
  return out;
}

#if FERRY_HAVE_PYTHON_PARSER

struct Builder {
  Tree& t;
  // Copies the subtree under the cursor; returns its index. Iterative over siblings, recursive
  // over depth (Python nesting is shallow; tree-sitter's own depth is bounded by the source).
  int copy(TSTreeCursor* cur, int parent) {
    const TSNode n = ts_tree_cursor_current_node(cur);
    Node out;
    out.type = ts_node_type(n);
    const char* field = ts_tree_cursor_current_field_name(cur);
    out.field = field ? field : "";
    out.begin = ts_node_start_byte(n);
    out.end = ts_node_end_byte(n);
    const TSPoint p = ts_node_start_point(n);
    const TSPoint e = ts_node_end_point(n);
    out.line = p.row + 1;
    out.col = p.column + 1;
    out.end_line = e.row + 1 - ((e.column == 0 && e.row > p.row) ? 1 : 0);
    out.named = ts_node_is_named(n);
    out.parent = parent;
    if (t.first_error_.empty() && (ts_node_is_missing(n) || std::string_view(out.type) == "ERROR"))
      t.first_error_ = "line " + std::to_string(out.line) + ": " +
                       (ts_node_is_missing(n) ? "missing " + std::string(out.type) : std::string("syntax error"));
    const int me = static_cast<int>(t.nodes_.size());
    t.nodes_.push_back(out);
    if (ts_tree_cursor_goto_first_child(cur)) {
      int prev = -1;
      do {
        const int c = copy(cur, me);
        if (prev < 0) t.nodes_[static_cast<std::size_t>(me)].first_child = c;
        else t.nodes_[static_cast<std::size_t>(prev)].next_sibling = c;
        prev = c;
      } while (ts_tree_cursor_goto_next_sibling(cur));
      ts_tree_cursor_goto_parent(cur);
    }
    return me;
  }
};

std::optional<Tree> Tree::parse(std::string_view src, std::string* /*error*/) {
  Tree t;
  t.src_ = src;
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, src.data(), static_cast<std::uint32_t>(src.size()));
  TSNode root = ts_tree_root_node(tree);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  Builder{t}.copy(&cur, -1);
  ts_tree_cursor_delete(&cur);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return t;
}

bool available() { return true; }
std::string describe() {
  return "tree-sitter (ABI " + std::to_string(ts_language_version(tree_sitter_python())) +
         ") with tree-sitter-python " + FERRY_TREE_SITTER_PYTHON_VERSION;
}

#else

std::optional<Tree> Tree::parse(std::string_view /*src*/, std::string* error) {
  if (error) *error = describe();
  return std::nullopt;
}
bool available() { return false; }
std::string describe() {
  return "this ferry was built without its Python parser (it needs Debian's libtree-sitter-dev and npm at build "
         "time: make deps, then rebuild)";
}

#endif

}  // namespace ferry::pyparse
