#include "core/byte_spool.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace ferry {

ByteSpool::ByteSpool(std::string what) : what_(std::move(what)), file_(std::tmpfile()) {
  if (!file_) throw std::runtime_error("cannot create a temporary file for " + what_);
}

ByteSpool::~ByteSpool() { std::fclose(file_); }

ByteSpool::Span ByteSpool::add(std::string_view bytes) {
  if (std::fseek(file_, 0, SEEK_END) != 0 || std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw std::runtime_error("cannot write the temporary file of " + what_ + " (disk full?)");
  const Span at{size_, bytes.size()};
  size_ += bytes.size();
  return at;
}

void ByteSpool::seek(Span span) const {
  if (std::fflush(file_) != 0)
    throw std::runtime_error("cannot write the temporary file of " + what_ + " (disk full?)");
  if (std::fseek(file_, static_cast<long>(span.offset), SEEK_SET) != 0)
    throw std::runtime_error("cannot read the temporary file of " + what_);
}

void ByteSpool::read(Span span, const std::function<void(std::string_view)>& f) const {
  seek(span);
  std::vector<char> buf(std::min<std::size_t>(span.size, 1 << 16));
  for (std::size_t left = span.size; left > 0;) {
    const std::size_t n = std::fread(buf.data(), 1, std::min(left, buf.size()), file_);
    if (n == 0) throw std::runtime_error("cannot read the temporary file of " + what_);
    f(std::string_view(buf.data(), n));
    left -= n;
  }
}

std::string ByteSpool::read(Span span) const {
  seek(span);
  std::string out(span.size, '\0');
  if (std::fread(out.data(), 1, span.size, file_) != span.size)
    throw std::runtime_error("cannot read the temporary file of " + what_);
  return out;
}

}  // namespace ferry
