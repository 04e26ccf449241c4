#include "serve/safe_fs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

namespace fs = std::filesystem;

namespace ferry::serve {
namespace {

// A file descriptor closed on scope exit.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  [[nodiscard]] int get() const { return fd_; }
  [[nodiscard]] bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

[[noreturn]] void refuse(const std::string& rel, const std::string& why) {
  throw AccessError(kForbidden, rel + ": " + why);
}

// Classifies a failed openat of `name` in `dirfd` into the error a client should see.
[[noreturn]] void open_failed(int dirfd, const std::string& name, const std::string& rel, int err) {
  struct stat st {};
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
    refuse(rel, "symbolic links are not followed");
  if (err == ENOENT) throw AccessError(kNotFound, rel + ": no such file");
  if (err == ELOOP) refuse(rel, "symbolic links are not followed");
  if (err == ENOTDIR) throw AccessError(kNotFound, rel + ": a path component is not a folder");
  if (err == EACCES || err == EPERM) refuse(rel, "permission denied");
  throw AccessError(kForbidden, rel + ": " + std::strerror(err));
}

// The folder holding the last component, opened component by component without following links.
Fd open_parent(int rootfd, const std::vector<std::string>& parts, const std::string& rel) {
  Fd dir(::fcntl(rootfd, F_DUPFD_CLOEXEC, 0));
  if (!dir.ok()) throw std::runtime_error(std::string("dup: ") + std::strerror(errno));
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    Fd next(::openat(dir.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.ok()) open_failed(dir.get(), parts[i], rel, errno);
    dir = std::move(next);
  }
  return dir;
}

// Opens the last component read-only: a regular file with one link, no symlink, no FIFO.
Fd open_file(int dirfd, const std::string& name, const std::string& rel, struct stat& st) {
  Fd f(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!f.ok()) open_failed(dirfd, name, rel, errno);
  if (::fstat(f.get(), &st) != 0) throw AccessError(kForbidden, rel + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(rel, S_ISDIR(st.st_mode) ? "is a folder" : "not a regular file");
  if (st.st_nlink > 1) refuse(rel, "has several hard links (one may lie outside the tree)");
  return f;
}

std::string read_all(int fd, const std::string& rel, std::size_t size_hint, std::size_t max_bytes) {
  if (size_hint > max_bytes)
    throw AccessError(kTooLarge, rel + ": " + std::to_string(size_hint) + " bytes, more than the " +
                                     std::to_string(max_bytes) + " the workbench opens");
  std::string out;
  out.reserve(size_hint);
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw AccessError(kForbidden, rel + ": read failed: " + std::strerror(errno));
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > max_bytes) throw AccessError(kTooLarge, rel + ": larger than the workbench opens");
  }
  return out;
}

}  // namespace

std::vector<std::string> split_relative(std::string_view rel, bool allow_state) {
  const std::string shown(rel.substr(0, 200));
  if (rel.empty()) refuse("(empty path)", "a path relative to the tree is needed");
  if (rel.find('\0') != std::string_view::npos) refuse(shown, "NUL byte in the path");
  if (rel.front() == '/') refuse(shown, "absolute paths are refused; give a path relative to the tree");
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (pos <= rel.size()) {
    std::size_t slash = rel.find('/', pos);
    if (slash == std::string_view::npos) slash = rel.size();
    const std::string_view part = rel.substr(pos, slash - pos);
    pos = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") refuse(shown, "'..' is refused; paths stay inside the tree");
    parts.emplace_back(part);
  }
  if (parts.empty()) refuse(shown, "names the tree itself, not a file in it");
  if (!allow_state && parts.front() == ".ferry") refuse(shown, ".ferry/ holds Ferry's state and is not served");
  return parts;
}

std::string normalise_relative(std::string_view rel) {
  std::string out;
  for (const std::string& p : split_relative(rel)) out += (out.empty() ? "" : "/") + p;
  return out;
}

SafeRoot::SafeRoot(const fs::path& dir) {
  std::error_code ec;
  path_ = fs::canonical(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": " + ec.message());
  fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(path_.string() + ": cannot open: " + std::strerror(errno));
}

SafeRoot::~SafeRoot() {
  if (fd_ >= 0) ::close(fd_);
}

std::string SafeRoot::read(std::string_view rel, std::size_t max_bytes) const {
  const std::vector<std::string> parts = split_relative(rel);
  const std::string shown(rel);
  const Fd dir = open_parent(fd_, parts, shown);
  struct stat st {};
  const Fd f = open_file(dir.get(), parts.back(), shown, st);
  return read_all(f.get(), shown, static_cast<std::size_t>(st.st_size), max_bytes);
}

bool SafeRoot::readable(std::string_view rel) const {
  try {
    const std::vector<std::string> parts = split_relative(rel);
    const Fd dir = open_parent(fd_, parts, std::string(rel));
    struct stat st {};
    (void)open_file(dir.get(), parts.back(), std::string(rel), st);
    return true;
  } catch (const AccessError&) {
    return false;
  }
}

void SafeRoot::replace(std::string_view rel, std::string_view content,
                       const std::function<bool(const std::string&)>& accept, std::size_t max_bytes) const {
  const std::vector<std::string> parts = split_relative(rel);
  const std::string shown(rel);
  const Fd dir = open_parent(fd_, parts, shown);
  const std::string& name = parts.back();
  auto current = [&](struct stat& st) {
    const Fd f = open_file(dir.get(), name, shown, st);
    return read_all(f.get(), shown, static_cast<std::size_t>(st.st_size), max_bytes);
  };
  struct stat st {};
  if (!accept(current(st))) throw AccessError(kConflict, shown + ": changed on disk since it was opened");

  thread_local std::mt19937_64 rng{std::random_device{}()};
  // The ".ferry-tmp-" infix is the one project::write_atomically uses: a round that finds such a
  // file after a crash removes it.
  const std::string tmp = "." + name + ".ferry-tmp-" + std::to_string(rng());
  Fd out(::openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 07777));
  if (!out.ok()) throw AccessError(kForbidden, shown + ": cannot create a temporary file: " + std::strerror(errno));
  auto abandon = [&](int status, const std::string& why) {
    ::unlinkat(dir.get(), tmp.c_str(), 0);
    throw AccessError(status, shown + ": " + why);
  };
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(out.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) abandon(kForbidden, std::string("write failed: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(out.get(), st.st_mode & 07777) != 0 || ::fsync(out.get()) != 0)
    abandon(kForbidden, std::string("write failed: ") + std::strerror(errno));
  struct stat again {};
  bool still_ok = false;
  try {
    still_ok = accept(current(again));
  } catch (const AccessError&) {  // the file went away or became a link meanwhile
    ::unlinkat(dir.get(), tmp.c_str(), 0);
    throw;
  }
  if (!still_ok) abandon(kConflict, "changed on disk while saving; nothing was overwritten");
  if (::renameat(dir.get(), tmp.c_str(), dir.get(), name.c_str()) != 0)
    abandon(kForbidden, std::string("cannot replace: ") + std::strerror(errno));
  ::fsync(dir.get());
}

}  // namespace ferry::serve
