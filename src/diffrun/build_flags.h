// What a program folder's own build gives the compiler beyond its sources and include folders:
// the macro definitions (-D) of its build scripts, Makefile or CMakeLists.txt, so that the suite
// (suite.h) builds both sides as the project does. HIP-Examples' mini-nbody/hip builds
// nbody-block.cpp with `hipcc -I../ -DSHMOO nbody-block.cpp` in HIP-nbody-block.sh, and the
// source does not compile without SHMOO. docs/diffrun.md, "Suite mode".
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::diffrun {

struct FolderDefines {
  std::vector<std::string> defines;  // NAME or NAME=VALUE, in the build's order, without repeats
  std::string from;                  // the file they come from ("HIP-nbody-block.sh", "Makefile", ...)
};

// The definitions the folder's build gives the program whose main source is `main` (a file name
// in `dir`); `mains` are all the folder's main sources: a command that names another main and not
// this one builds that program, not this one. The first of these that gives any, in this order:
//   1. a shell script of the folder (*.sh): compiler commands that name `main` (script_defines);
//   2. the folder's Makefile: assignments and recipe lines outside conditionals (makefile_defines);
//   3. the folder's CMakeLists.txt: add_definitions, add_compile_definitions and the
//      target_compile_definitions of the target that `main` is a source of, outside if() blocks
//      and function/macro bodies (cmake_defines).
// The text of a build file or source, empty when it is not a regular file or cannot be read.
[[nodiscard]] std::string read_or_empty(const std::filesystem::path& p);

[[nodiscard]] FolderDefines folder_defines(const std::filesystem::path& dir, const std::string& main,
                                           const std::vector<std::string>& mains);

[[nodiscard]] std::vector<std::string> script_defines(std::string_view script, const std::string& main,
                                                      const std::vector<std::string>& mains);
[[nodiscard]] std::vector<std::string> makefile_defines(std::string_view makefile, const std::string& main,
                                                        const std::vector<std::string>& mains);
[[nodiscard]] std::vector<std::string> cmake_defines(std::string_view cmakelists, const std::string& main,
                                                     const std::vector<std::string>& mains);

}  // namespace ferry::diffrun
