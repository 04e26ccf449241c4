// A Python syntax tree: tree-sitter-python's concrete tree, copied into a flat array of nodes so
// that the rest of Ferry never includes tree-sitter's headers (docs/architecture.md "Python
// parser"). Built only when the build found Debian's libtree-sitter and the grammar's C sources
// (npm, cmake/tree-sitter-python/); otherwise parse() says so and available() is false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::pyparse {

struct Node {
  std::string_view type;             // the grammar's node type: "call", "identifier", "class_definition", "(" ...
  std::string_view field;            // the field it fills in its parent ("function", "arguments", "body") or ""
  std::uint32_t begin = 0, end = 0;  // byte range in the source
  std::uint32_t line = 0, col = 0;   // 1-based start line and byte column
  std::uint32_t end_line = 0;        // 1-based line of the last byte
  bool named = false;                // a named node (not punctuation or a keyword)
  int parent = -1;
  int first_child = -1, next_sibling = -1;
};

class Tree {
 public:
  // Parses `src` (which must outlive the tree). nullopt with *error set when no parser is built in.
  [[nodiscard]] static std::optional<Tree> parse(std::string_view src, std::string* error);

  [[nodiscard]] int root() const { return nodes_.empty() ? -1 : 0; }
  [[nodiscard]] const Node& at(int i) const { return nodes_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] std::size_t size() const { return nodes_.size(); }
  [[nodiscard]] std::string_view text(int i) const { return src_.substr(at(i).begin, at(i).end - at(i).begin); }
  [[nodiscard]] std::string_view type(int i) const { return i < 0 ? std::string_view() : at(i).type; }
  // The first child filling `field`, or -1.
  [[nodiscard]] int child(int i, std::string_view field) const;
  // All children, or the named ones only.
  [[nodiscard]] std::vector<int> children(int i) const;
  [[nodiscard]] std::vector<int> named_children(int i) const;
  // The first syntax error (an ERROR or MISSING node) as "line L: ...", or "" when the tree is clean.
  [[nodiscard]] const std::string& first_error() const { return first_error_; }

 private:
  std::string_view src_;
  std::vector<Node> nodes_;
  std::string first_error_;
  friend struct Builder;
};

// True when this build has the Python parser.
[[nodiscard]] bool available();
// "tree-sitter 0.20 (ABI 14) with tree-sitter-python 0.23.6", or why there is none.
[[nodiscard]] std::string describe();

}  // namespace ferry::pyparse
