// Where an installed ferry finds what it ships beside the binary, relative to the binary itself
// (/proc/self/exe), so that a prefix can be moved or packaged:
//   PREFIX/bin/ferry
//   PREFIX/lib/ferry/wave64/{include,hip,cuda,lib/libferry_wave64.a}   the wave64 CPU runtime
//   PREFIX/share/ferry/rules/...                                        rule tables, compat headers
//   PREFIX/share/doc/ferry/diagnostics.md                               what SARIF rules link to
// A binary run from its build tree has no such layout: callers fall back to the build tree's
// paths, unless FERRY_IGNORE_BUILD_TREE=1 is set (the install test uses it to prove the
// installed copy needs nothing else).
#pragma once

#include <filesystem>

namespace ferry::project {

// The folder of the running binary; empty when /proc/self/exe cannot be read.
[[nodiscard]] std::filesystem::path executable_dir();

// PREFIX/<relative> when the binary runs from PREFIX/bin and that path exists; else empty.
[[nodiscard]] std::filesystem::path installed_path(const std::filesystem::path& relative);

// Whether build-tree fallbacks are allowed (FERRY_IGNORE_BUILD_TREE is not "1").
[[nodiscard]] bool build_tree_allowed();

}  // namespace ferry::project
