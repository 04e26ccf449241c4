// What a build file was before Ferry migrated it, carried in the migrated file itself so that
// migrating back restores the original text exactly (CUDA -> HIP -> CUDA gives the CUDA flags,
// libraries and architectures the user wrote, not a re-derivation from the HIP ones).
//
// The CUDA -> HIP migration ends with `record_originals`: every changed hunk of whole lines (whole
// logical lines in Makefiles, whole commands in CMake) is preceded by comment lines
//
//   # ferry-cuda-was N=<new lines> M=<original lines> h=<hash of the new lines>
//   # | <original line 1>
//   # | ...
//
// The HIP -> CUDA migration starts with `restore_originals`: a record whose N lines still hash to
// h is replaced by its M original lines; a record whose lines were edited since is dropped (the
// edited lines are then migrated like any HIP line) and reported. Both kinds of file use '#'
// comments, and a comment line is legal between Makefile recipe lines and CMake commands alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ferry::buildsys {

enum class BuildSyntax { Make, CMake };

// Whose lines a record holds: the CUDA lines CUDA -> HIP replaced (`# ferry-cuda-was`), or, since
// 2026-12-05e, the HIP lines HIP -> CUDA replaced (`# ferry-hip-was`, the same form, restored by
// CUDA -> HIP, so that HIP -> CUDA -> HIP gives the HIP build file back). Each way first restores
// the other way's records, keeps the restored lines as they are, and records only the hunks it
// changes itself (`original` is the text after the restore): a way back writes no records.
enum class RecordOf { Cuda, Hip };

[[nodiscard]] std::string record_originals(std::string_view original, std::string_view migrated, BuildSyntax syntax,
                                           RecordOf of = RecordOf::Cuda);

struct Restored {
  std::string text;
  std::vector<std::pair<std::size_t, std::size_t>> restored;  // byte ranges of `text` put back verbatim
  std::vector<std::uint32_t> edited;                          // lines (of the input) of records edited since
};
[[nodiscard]] Restored restore_originals(std::string_view text, RecordOf of = RecordOf::Cuda);

}  // namespace ferry::buildsys
