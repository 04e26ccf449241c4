// File access for the workbench: every path a browser sends is relative to one root folder
// (OUT, or the input tree read-only) and must stay inside it, whatever the request says.
//
// A path is refused (Forbidden) when it is empty, absolute, holds a NUL byte or a `..`
// component, names Ferry's own state (`.ferry/`), or crosses a symbolic link anywhere on the way:
// every component is opened with openat(O_NOFOLLOW) from the root's descriptor, so a link swapped
// in between a check and the use is refused too. Files with more than one hard link are refused
// (a hard link can point outside the root). Writes go to a temporary file in the same folder and
// are renamed over the target (atomic; the rename replaces a directory entry and never writes
// through a link). Nothing here follows a symlink.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::serve {

// An access refused or failed; `status` is the HTTP status that explains it best.
class AccessError : public std::runtime_error {
 public:
  AccessError(int status, const std::string& what) : std::runtime_error(what), status_(status) {}
  [[nodiscard]] int status() const { return status_; }

 private:
  int status_;
};

inline constexpr int kForbidden = 403;
inline constexpr int kNotFound = 404;
inline constexpr int kConflict = 409;
inline constexpr int kTooLarge = 413;

// The components of a user-given relative path ("src//./a.cu" -> {"src", "a.cu"}). Throws
// AccessError(403) for what the header comment lists. `allow_state`: accept `.ferry/` (never for
// requests; for the server's own reads).
[[nodiscard]] std::vector<std::string> split_relative(std::string_view rel, bool allow_state = false);
// The same components joined with '/'.
[[nodiscard]] std::string normalise_relative(std::string_view rel);

class SafeRoot {
 public:
  // Opens `dir` (which must be a folder; a symlink to one is resolved here, once, on purpose:
  // it is the user's command line). Throws std::runtime_error when it cannot.
  explicit SafeRoot(const std::filesystem::path& dir);
  ~SafeRoot();
  SafeRoot(const SafeRoot&) = delete;
  SafeRoot& operator=(const SafeRoot&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  // The content of a regular file. Throws AccessError: 403 (refused path, symlink, hard link,
  // not a regular file), 404 (missing), 413 (larger than `max_bytes`).
  [[nodiscard]] std::string read(std::string_view rel, std::size_t max_bytes) const;

  // True when `rel` names an existing regular file that read() would open.
  [[nodiscard]] bool readable(std::string_view rel) const;

  // Replaces an existing regular file atomically. `accept(current)` is called with the current
  // content twice — before writing and again right before the rename — and the write is abandoned
  // (AccessError 409, the file untouched) when it returns false. The file keeps its permissions.
  void replace(std::string_view rel, std::string_view content,
               const std::function<bool(const std::string& current)>& accept, std::size_t max_bytes) const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace ferry::serve
