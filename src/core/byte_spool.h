// Byte strings kept in an anonymous temporary file instead of in memory, each read back by the
// span `add` returned. A tree migration's per-file records (line maps, manifest entries, the
// wave64 planner's facts of every file) grow with the tree; spooled, memory holds only their spans.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace ferry {

class ByteSpool {
 public:
  struct Span {
    std::uint64_t offset = 0;
    std::size_t size = 0;
  };
  // `what` names the records in errors ("the line maps").
  explicit ByteSpool(std::string what);
  ~ByteSpool();
  ByteSpool(const ByteSpool&) = delete;
  ByteSpool& operator=(const ByteSpool&) = delete;

  // Appends `bytes`; returns where they are. Not thread-safe (nor are the reads): callers lock.
  Span add(std::string_view bytes);
  // Calls f with the bytes of `span`, in order, in parts of at most 64 KiB.
  void read(Span span, const std::function<void(std::string_view)>& f) const;
  // The bytes of `span`.
  [[nodiscard]] std::string read(Span span) const;
  [[nodiscard]] const std::string& what() const { return what_; }

 private:
  void seek(Span span) const;

  std::string what_;
  std::FILE* file_;
  std::uint64_t size_ = 0;
};

}  // namespace ferry
