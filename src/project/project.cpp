#include "project/project.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace ferry::project {

const char* kind_name(FileKind k) {
  switch (k) {
    case FileKind::CudaSource: return "cuda";
    case FileKind::CudaHeader: return "cuda-header";
    case FileKind::HipSource: return "hip";
    case FileKind::CppSource: return "c++";
    case FileKind::Header: return "header";
    case FileKind::Python: return "python";
    case FileKind::CMake: return "cmake";
    case FileKind::Makefile: return "makefile";
    case FileKind::Other: return "other";
  }
  return "?";
}

bool is_c_family(FileKind k) {
  return k == FileKind::CudaSource || k == FileKind::CudaHeader || k == FileKind::HipSource ||
         k == FileKind::CppSource || k == FileKind::Header;
}

FileKind classify(const fs::path& rel) {
  const std::string name = rel.filename().string();
  std::string ext = rel.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name == "CMakeLists.txt" || ext == ".cmake") return FileKind::CMake;
  if (name == "Makefile" || name == "makefile" || name == "GNUmakefile" || ext == ".mk") return FileKind::Makefile;
  if (ext == ".cu") return FileKind::CudaSource;
  if (ext == ".cuh") return FileKind::CudaHeader;
  if (ext == ".hip") return FileKind::HipSource;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c++" || ext == ".c") return FileKind::CppSource;
  if (ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".inl" || ext == ".inc" ||
      ext == ".tpp" || ext == ".ipp")
    return FileKind::Header;
  if (ext == ".py") return FileKind::Python;
  return FileKind::Other;
}

bool is_within(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(inner), ec).lexically_normal();
  const fs::path b = fs::weakly_canonical(fs::absolute(outer), ec).lexically_normal();
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

Walk walk_tree(const fs::path& root, const WalkOptions& options) {
  std::error_code ec;
  const fs::file_status st = fs::status(root, ec);
  if (ec || !fs::exists(st)) throw std::runtime_error(root.string() + ": no such file or directory");
  if (!fs::is_directory(st)) throw std::runtime_error(root.string() + ": not a directory");

  Walk walk;
  walk.root = root;
  const fs::path canon_root = fs::canonical(root);
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw std::runtime_error(root.string() + ": cannot read directory: " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      // A failed increment leaves the iterator at its end: it must not be dereferenced.
      walk.problems.push_back({Diag::Unreadable, Severity::Warning, root.string(), 0, 0,
                               "cannot read part of the tree (walk stopped): " + ec.message(),
                               "check the permissions"});
      break;
    }
    const fs::directory_entry& e = *it;
    // Lexical: fs::relative resolves symlinks, which names a link by its target (or "..").
    const fs::path rel = e.path().lexically_relative(root);
    const std::string rel_s = rel.generic_string();
    const std::string name = e.path().filename().string();
    if (e.is_symlink()) {
      std::error_code lec;
      const fs::path target = fs::canonical(e.path(), lec);
      if (lec) {
        walk.problems.push_back({Diag::Unreadable, Severity::Warning, rel_s, 0, 0, "broken symbolic link: skipped",
                                 "remove the link or fix its target"});
        continue;
      }
      if (fs::is_directory(target)) {
        const bool loop = is_within(canon_root, target) || is_within(e.path().parent_path(), target);
        walk.problems.push_back({Diag::DirectorySymlink, Severity::Note, rel_s, 0, 0,
                                 loop ? "symbolic link to an ancestor directory (a loop): not followed"
                                      : "symbolic link to a directory: not followed",
                                 "pass the linked directory itself if it belongs to the project"});
        continue;
      }
    }
    if (e.is_directory(ec)) {
      bool skip = name == ".git" || name == ".hg" || name == ".svn" || name == ".ferry";
      for (const fs::path& x : options.exclude_dirs) skip = skip || is_within(e.path(), x);
      if (skip) it.disable_recursion_pending();
      continue;
    }
    if (!e.is_regular_file(ec)) {  // reading a FIFO would block: report and skip
      walk.problems.push_back({Diag::Unreadable, Severity::Note, rel_s, 0, 0,
                               "not a regular file (FIFO, socket or device): skipped",
                               "remove it from the source tree if it does not belong there"});
      continue;
    }
    ProjectFile f{rel_s, classify(rel), e.file_size(ec)};
    walk.files.push_back(std::move(f));
  }
  std::sort(walk.files.begin(), walk.files.end(),
            [](const ProjectFile& a, const ProjectFile& b) { return a.rel < b.rel; });
  walk.files.shrink_to_fit();  // held while the tree is migrated
  return walk;
}

bool is_valid_utf8(std::string_view s, std::size_t* bad_offset) {
  std::size_t i = 0;
  while (i < s.size()) {
    // Eight ASCII bytes at a time (source text is mostly ASCII).
    std::uint64_t w;
    if (i + 8 <= s.size() && (std::memcpy(&w, s.data() + i, 8), (w & 0x8080808080808080ull) == 0)) {
      i += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    if (ok && n == 2) ok = c >= 0xC2;
    if (!ok) {
      if (bad_offset) *bad_offset = i;
      return false;
    }
    i += n;
  }
  return true;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open for reading");
  std::string data;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    data.resize(static_cast<std::size_t>(size));
    in.read(data.data(), size);
    data.resize(static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error(path.string() + ": read error");
  return data;
}

TextRead read_source(const fs::path& path, const std::string& display, std::uintmax_t max_size) {
  TextRead r;
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) {
    r.problems.push_back({Diag::Unreadable, Severity::Error, display, 0, 0, "cannot read: " + ec.message(),
                          "check that the file exists and is readable"});
    return r;
  }
  if (size > max_size) {
    r.problems.push_back({Diag::FileTooLarge, Severity::Warning, display, 0, 0,
                          "file is " + std::to_string(size >> 20) + " MiB, above the " +
                              std::to_string(max_size >> 20) + " MiB limit: copied unchanged",
                          "raise the limit with --max-file-size if this really is source code"});
    return r;
  }
  std::string text;
  try {
    text = read_file(path);
  } catch (const std::exception& e) {
    r.problems.push_back(
        {Diag::Unreadable, Severity::Error, display, 0, 0, e.what(), "check that the file is readable"});
    return r;
  }
  if (text.find('\0') != std::string::npos) {
    r.problems.push_back({Diag::BinaryContent, Severity::Warning, display, 0, 0,
                          "binary content (NUL bytes) in a source-named file: copied unchanged",
                          "rename it if it is not source code"});
    return r;
  }
  std::size_t bad = 0;
  if (!is_valid_utf8(text, &bad)) {
    std::uint32_t line = 1;
    for (std::size_t i = 0; i < bad; ++i) line += text[i] == '\n';
    r.problems.push_back({Diag::InvalidUtf8, Severity::Note, display, line, 0,
                          "invalid UTF-8 (byte offset " + std::to_string(bad) +
                              "); processed byte for byte, non-UTF-8 bytes kept as they are",
                          "convert the file to UTF-8 (e.g. iconv -f GBK -t UTF-8) for clean reports"});
  }
  r.text = std::move(text);
  return r;
}

void write_atomically(const fs::path& path, std::string_view content) {
  write_atomically(path,
                   [&](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

void write_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  thread_local std::mt19937_64 rng{std::random_device{}()};
  fs::path tmp = path;
  tmp += ".ferry-tmp-" + std::to_string(rng());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
    try {
      write(out);
    } catch (...) {
      out.close();
      fs::remove(tmp, ec);
      throw;
    }
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      throw std::runtime_error(path.string() + ": write failed (disk full?)");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(path.string() + ": cannot replace: " + ec.message());
  }
}

}  // namespace ferry::project
