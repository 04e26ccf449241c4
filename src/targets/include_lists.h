// Per source file of a project (relative path), the headers its #include lines name as written
// ("<cstdio>", "\"util/common.h\""): ProjectContext::includes, kept from the pre-passes until the
// last file is migrated. A tree's files name the same few headers again and again, so each name is
// kept once (a pool) and a file's list is a run of indices into it: the lists of a tree grow by a
// few bytes per #include, not by a string each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ferry::targets {

class IncludeLists {
  struct Run {
    std::uint32_t first = 0;  // into ids_
    std::uint32_t count = 0;
  };
  using Files = std::unordered_map<std::string, Run>;

 public:
  // One file's headers, in the order of its #include lines; valid while the IncludeLists is.
  class Headers {
   public:
    class iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = std::string;
      using difference_type = std::ptrdiff_t;
      using pointer = const std::string*;
      using reference = const std::string&;
      iterator() = default;
      iterator(const IncludeLists* owner, const std::uint32_t* at) : owner_(owner), at_(at) {}
      reference operator*() const { return owner_->names_[*at_]; }
      pointer operator->() const { return &**this; }
      iterator& operator++() {
        ++at_;
        return *this;
      }
      iterator operator++(int) {
        iterator was = *this;
        ++at_;
        return was;
      }
      bool operator==(const iterator& o) const { return at_ == o.at_; }

     private:
      const IncludeLists* owner_ = nullptr;
      const std::uint32_t* at_ = nullptr;
    };
    Headers(const IncludeLists& owner, Run run) : owner_(&owner), run_(run) {}
    [[nodiscard]] iterator begin() const { return {owner_, owner_->ids_.data() + run_.first}; }
    [[nodiscard]] iterator end() const { return {owner_, owner_->ids_.data() + run_.first + run_.count}; }
    [[nodiscard]] std::size_t size() const { return run_.count; }
    [[nodiscard]] bool empty() const { return run_.count == 0; }
    [[nodiscard]] const std::string& operator[](std::size_t i) const {
      return owner_->names_[owner_->ids_[run_.first + i]];
    }

   private:
    const IncludeLists* owner_;
    Run run_;
  };

  // Every file with its headers: (relative path, Headers).
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<const std::string&, Headers>;
    using difference_type = std::ptrdiff_t;
    const_iterator(const IncludeLists* owner, Files::const_iterator at) : owner_(owner), at_(at) {}
    value_type operator*() const { return {at_->first, Headers(*owner_, at_->second)}; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return at_ == o.at_; }

   private:
    const IncludeLists* owner_;
    Files::const_iterator at_;
  };

  IncludeLists() = default;
  // Headers point into their IncludeLists: a copy would hand out views of the original.
  IncludeLists(const IncludeLists&) = delete;
  IncludeLists& operator=(const IncludeLists&) = delete;
  IncludeLists(IncludeLists&&) = default;
  IncludeLists& operator=(IncludeLists&&) = default;

  // Records `file`'s headers, in order (a file recorded again gets the new list).
  void set(const std::string& file, std::span<const std::string_view> headers);
  [[nodiscard]] bool contains(const std::string& file) const { return files_.contains(file); }
  // `file`'s headers, or nullopt when `file` was not recorded.
  [[nodiscard]] std::optional<Headers> find(const std::string& file) const;
  [[nodiscard]] std::size_t size() const { return files_.size(); }
  [[nodiscard]] bool empty() const { return files_.empty(); }
  // The files in the order of a std::unordered_map<std::string, ...> filled in the order the files
  // were recorded, as the lists were kept before they were pooled: a reader that takes the first
  // file to match (ProjectContext::project_include) finds the one it found then.
  [[nodiscard]] const_iterator begin() const { return {this, files_.begin()}; }
  [[nodiscard]] const_iterator end() const { return {this, files_.end()}; }
  // The first file in begin()'s order whose path is `path` or ends with "/" + `path` (a quoted
  // include found by its path's suffix), or nullptr. A lookup reads only the files of `path`'s last
  // component (an index by file name, built on the first lookup after a set(), under a lock: the
  // migration loop's threads share it), not every file of the tree.
  [[nodiscard]] const std::string* first_ending_with(std::string_view path) const;
  // Distinct header names held (the pool), for tests and measurements.
  [[nodiscard]] std::size_t distinct_headers() const { return names_.size(); }

 private:
  Files files_;
  std::vector<std::uint32_t> ids_;                             // every file's run, one after the other
  std::deque<std::string> names_;                              // by id; a deque keeps each name where it is as it grows
  std::unordered_map<std::string_view, std::uint32_t> id_of_;  // views of names_
  struct ByName {
    std::string_view name;    // the file's last path component
    std::uint32_t rank;       // its place in begin()'s order
    const std::string* file;  // the key in files_ (nodes stay where they are)
  };
  // by_name_ sorted by (name, rank); empty and stale after a set() until the next lookup.
  mutable std::unique_ptr<std::mutex> index_lock_ = std::make_unique<std::mutex>();
  mutable std::vector<ByName> by_name_;
  mutable bool indexed_ = false;
};

}  // namespace ferry::targets
