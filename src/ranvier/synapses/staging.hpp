// Connections as they are created: appended to fixed-size chunks owned by one thread, so
// construction never allocates per connection and threads never share an allocator path.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace ranvier {

struct StagedConnection {
  uint32_t source;      // gid
  uint32_t target;      // local index on the owning thread
  uint32_t delay;       // steps
  uint32_t record;      // the table's initial record of its Connect call (models with records)
  double weight;
};

class ConnectionStaging {
 public:
  static constexpr size_t chunk_size = size_t(1) << 16;

  ConnectionStaging() = default;
  ConnectionStaging(const ConnectionStaging&) = delete;
  ConnectionStaging& operator=(const ConnectionStaging&) = delete;
  ConnectionStaging(ConnectionStaging&&) noexcept = default;
  ConnectionStaging& operator=(ConnectionStaging&&) noexcept = default;

  void push(const StagedConnection& c) {
    if (size_ == chunks_.size() * chunk_size)
      chunks_.push_back(std::make_unique<StagedConnection[]>(chunk_size));
    chunks_[size_ / chunk_size][size_ % chunk_size] = c;
    ++size_;
    min_source_ = std::min(min_source_, c.source);
    max_source_ = std::max(max_source_, c.source);
  }
  // Range of the staged sources (empty staging: min > max).
  uint32_t min_source() const { return min_source_; }
  uint32_t max_source() const { return max_source_; }
  size_t size() const { return size_; }
  const StagedConnection& operator[](size_t k) const {
    return chunks_[k / chunk_size][k % chunk_size];
  }
  // Undoes the connections of a failed Connect call.
  void truncate(size_t n) {
    size_ = n;
    chunks_.resize((n + chunk_size - 1) / chunk_size);
    min_source_ = UINT32_MAX, max_source_ = 0;
    for (size_t k = 0; k < n; ++k)
      min_source_ = std::min(min_source_, (*this)[k].source), max_source_ = std::max(max_source_, (*this)[k].source);
  }
  const StagedConnection* chunk(size_t c) const { return chunks_[c].get(); }
  void release_chunk(size_t c) { chunks_[c].reset(); }
  size_t chunk_count() const { return chunks_.size(); }
  void clear() {
    chunks_.clear();
    size_ = 0;
    min_source_ = UINT32_MAX, max_source_ = 0;
  }

 private:
  std::vector<std::unique_ptr<StagedConnection[]>> chunks_;
  size_t size_ = 0;
  uint32_t min_source_ = UINT32_MAX, max_source_ = 0;
};

}  // namespace ranvier
