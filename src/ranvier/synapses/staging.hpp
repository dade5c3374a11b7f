// Connections as they are created, until preparation sorts them into their table. They are
// grouped in blocks of 256 consecutive sources, so that the sort takes one block at a time
// and frees it as the table grows: the peak stays near one copy of the connections. Each
// block appends to chunks of columns owned by one thread (no allocation per connection, no
// allocator shared between threads), each twice the size of the one before up to a limit, so
// that a block of few connections (one rank of many) costs few bytes. A column whose values
// agree within a chunk (a constant weight or delay, the record of one Connect call) keeps one value.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "synapses/page_array.hpp"

namespace ranvier {

struct StagedConnection {
  uint32_t source;      // gid
  uint32_t target;      // local index on the owning thread
  uint32_t delay;       // steps (at most 65535)
  uint32_t record;      // the table's initial record of its Connect call (models with records)
  double weight;
};

// One column of a chunk: a single value until a different one comes, then one per entry.
template <class T>
class ChunkColumn {
 public:
  T get(size_t i) const { return values_ ? values_[i] : first_; }
  void set(size_t i, T v, size_t capacity) {
    if (values_) {
      values_[i] = v;
    } else if (i == 0) {
      first_ = v;
    } else if (std::memcmp(&v, &first_, sizeof(T)) != 0) {  // bits: -0.0 stays -0.0
      values_ = PageArray<T>(capacity);
      for (size_t j = 0; j < i; ++j) values_[j] = first_;
      values_[i] = v;
    }
  }

 private:
  T first_{};
  PageArray<T> values_;
};

struct StagingChunk {
  static constexpr size_t first_capacity = 64, max_capacity = size_t(1) << 18;
  explicit StagingChunk(size_t n) : capacity(n), slot(n), target(n) {}
  size_t capacity, size = 0;
  PageArray<uint8_t> slot;  // source minus the block's first source
  PageArray<uint32_t> target;
  ChunkColumn<uint16_t> delay;
  ChunkColumn<uint32_t> record;
  ChunkColumn<double> weight;
};

struct StagingBlock {
  std::vector<std::unique_ptr<StagingChunk>> chunks;
  size_t size = 0;
  uint64_t call = 0;  // the last Connect call that added to the block
};

class ConnectionStaging {
 public:
  static constexpr unsigned block_bits = 8;
  static constexpr size_t block_span = size_t(1) << block_bits;

  ConnectionStaging() = default;
  ConnectionStaging(const ConnectionStaging&) = delete;
  ConnectionStaging& operator=(const ConnectionStaging&) = delete;
  ConnectionStaging(ConnectionStaging&&) noexcept = default;
  ConnectionStaging& operator=(ConnectionStaging&&) noexcept = default;

  void push(const StagedConnection& c) {
    const size_t b = c.source >> block_bits;
    if (b >= blocks_.size()) blocks_.resize(b + 1);
    StagingBlock& block = blocks_[b];
    if (block.call != call_) undo_.push_back({b, block.size}), block.call = call_;
    if (block.chunks.empty() || block.chunks.back()->size == block.chunks.back()->capacity)
      block.chunks.push_back(std::make_unique<StagingChunk>(
          block.chunks.empty() ? StagingChunk::first_capacity
                               : std::min(2 * block.chunks.back()->capacity, StagingChunk::max_capacity)));
    StagingChunk& chunk = *block.chunks.back();
    const size_t i = chunk.size++;
    chunk.slot[i] = uint8_t(c.source & (block_span - 1));
    chunk.target[i] = c.target;
    chunk.delay.set(i, uint16_t(c.delay), chunk.capacity);
    chunk.record.set(i, c.record, chunk.capacity);
    chunk.weight.set(i, c.weight, chunk.capacity);
    ++block.size;
    ++size_;
  }
  size_t size() const { return size_; }

  // A Connect call begins; undo_call() removes what it added (the call failed).
  void begin_call() {
    ++call_;
    undo_.clear();
    call_size_ = size_;
  }
  void undo_call() {
    for (const Undo& u : undo_) {
      StagingBlock& block = blocks_[u.block];
      size_t kept = 0, c = 0;
      for (; c < block.chunks.size() && kept < u.size; ++c) {
        block.chunks[c]->size = std::min(block.chunks[c]->size, u.size - kept);
        kept += block.chunks[c]->size;
      }
      block.chunks.resize(c);
      block.size = u.size;
    }
    undo_.clear();
    size_ = call_size_;
  }

  // Blocks by source / block_span; release() frees one that has been consumed.
  const std::vector<StagingBlock>& blocks() const { return blocks_; }
  void release(size_t b) { blocks_[b].chunks.clear(); }
  void clear() {
    std::vector<StagingBlock>().swap(blocks_);
    undo_.clear();
    size_ = call_size_ = 0;
  }

 private:
  struct Undo {
    size_t block, size;
  };
  std::vector<StagingBlock> blocks_;
  std::vector<Undo> undo_;  // blocks the current call added to, with their sizes before it
  uint64_t call_ = 1;
  size_t size_ = 0, call_size_ = 0;
};

}  // namespace ranvier
