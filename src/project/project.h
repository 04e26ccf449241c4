// Walking an input tree: which files there are, what kind each is, and whether they can be read.
//
// The walk never follows a symlinked directory (so loops cannot happen; a link that points back
// into its own ancestry is reported), skips VCS folders, and classifies every file by name and
// content. Reading checks what users get wrong: binary files, invalid UTF-8, files too large.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace ferry::project {

enum class FileKind {
  CudaSource,  // .cu
  CudaHeader,  // .cuh
  HipSource,   // .hip
  CppSource,   // .cpp .cc .cxx .c++ .c
  Header,      // .h .hpp .hh .hxx .inl .inc .tpp
  Python,      // .py
  CMake,       // CMakeLists.txt, *.cmake
  Makefile,    // Makefile, GNUmakefile, *.mk
  Other,       // anything else: copied as is
};

[[nodiscard]] const char* kind_name(FileKind k);
// Sources the C/C++/CUDA migrator rewrites.
[[nodiscard]] bool is_c_family(FileKind k);
[[nodiscard]] FileKind classify(const std::filesystem::path& rel);

// One file of a walk. Its path on disk is not kept: a tree's walk holds every file while the tree
// is migrated, and a std::filesystem::path keeps a parsed copy of each component (several times
// the relative path's bytes); abs() puts it together when the file is read.
struct ProjectFile {
  std::string rel;  // path relative to the root, '/'-separated
  FileKind kind;
  std::uintmax_t size;
  // The file's path: `root` (the folder walked, as Walk::root has it) joined with rel.
  [[nodiscard]] std::filesystem::path abs(const std::filesystem::path& root) const { return root / rel; }
};

struct WalkOptions {
  std::uintmax_t max_file_size = 64ull << 20;       // larger files are copied, not parsed
  std::vector<std::filesystem::path> exclude_dirs;  // absolute; e.g. the output folder
};

struct Walk {
  std::filesystem::path root;      // the folder walked, as given (ProjectFile::abs)
  std::vector<ProjectFile> files;  // sorted by rel
  std::vector<Diagnostic> problems;
};

// Throws std::runtime_error when `root` does not exist or cannot be read at all.
[[nodiscard]] Walk walk_tree(const std::filesystem::path& root, const WalkOptions& options);

struct TextRead {
  std::optional<std::string> text;  // empty when the file must not be parsed
  std::vector<Diagnostic> problems;
};

// Reads a source file for parsing: binary content (NUL bytes) and oversize files are refused
// (FRY9001/FRY9004), invalid UTF-8 is reported (FRY9002) but parsed byte for byte.
[[nodiscard]] TextRead read_source(const std::filesystem::path& path, const std::string& display,
                                   std::uintmax_t max_size);

// Whole-file read/write helpers. write_atomically writes to a temporary beside `path` and
// renames it over, so a killed run never leaves a half-written file.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);
void write_atomically(const std::filesystem::path& path, std::string_view content);
// The same for content written piece by piece (a file larger than what should be held at once).
void write_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

[[nodiscard]] bool is_valid_utf8(std::string_view s, std::size_t* bad_offset = nullptr);

// True when `inner` equals `outer` or lies inside it (both made absolute and normalised).
[[nodiscard]] bool is_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

}  // namespace ferry::project
