// CMake syntax shared by the CUDA -> HIP and HIP -> CUDA build-file migrations, their round-trip
// record and ferry scan: the language's own tokens (commands, parenthesised arguments, quoted and
// bracket arguments, line and bracket comments), each with its byte range, so that a rewrite edits
// arguments and keeps everything else byte for byte (make_syntax.h is the same for Makefiles).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::buildsys {

// One CMake command as written: name, arguments, byte ranges (for tests and the rewriter).
struct CMakeArg {
  std::string text;  // as written (quotes included)
  std::size_t begin, end;
  bool quoted, bracket;
};
struct CMakeCommand {
  std::string name;        // lower-cased
  std::size_t begin, end;  // from the name to the closing parenthesis
  std::uint32_t line;
  std::vector<CMakeArg> args;
};
// Throws std::runtime_error on unbalanced parentheses or unterminated quotes/brackets.
[[nodiscard]] std::vector<CMakeCommand> parse_cmake(std::string_view text);

// Per command: whether it lies in a branch of a runtime switch, an `if`/`elseif` that compares a
// variable with a platform's name (`if(GPU_RUNTIME STREQUAL "CUDA")`, rocm-examples) up to its
// `endif` (the if, elseif, else and endif commands themselves are not). Each branch is the build
// the file's authors wrote for one platform: the migrations leave it as written and flip the selector.
[[nodiscard]] std::vector<bool> runtime_switch_commands(const std::vector<CMakeCommand>& cmds);

}  // namespace ferry::buildsys
