// Connections as they are created, until preparation sorts them into their table. A dense
// table (at least one connection per source of its gid range) stages in blocks of 256
// consecutive sources, so that the sort takes one block at a time and frees it as the table
// grows: the peak stays near one copy of the connections. Each block appends to chunks of
// columns owned by one thread (no allocation per connection, no allocator shared between
// threads), each twice the size of the one before up to a limit. A column whose values agree
// within a chunk (a constant weight or delay, the record of one Connect call) keeps one value.
// A sparse table (one rank of many: a few connections from each of many sources) would touch
// a different block at every connection, so it stays a list, grouped by block for the sort;
// a table starts as a list and turns into blocks once it is found dense. The list is chunks
// of columns as the blocks' are (8 bytes a connection where a Connect call's weight, delay and
// record are constant), so that it is not the peak of the sparse regime's preparation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "synapses/page_array.hpp"

namespace ranvier {

struct StagedConnection {
  uint32_t source;  // gid
  uint32_t target;  // local index on the owning thread
  uint32_t delay;   // steps (at most 65535)
  uint32_t record;  // the table's initial record of its Connect call (models with records)
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

// A stretch of a sparse table's list: whole source ids (a list has no blocks).
struct ListChunk {
  static constexpr unsigned max_bits = 16;
  static constexpr size_t first_capacity = 1024, max_capacity = size_t(1) << max_bits;
  explicit ListChunk(size_t n) : capacity(n), source(n), target(n) {}
  size_t capacity, size = 0;
  PageArray<uint32_t> source, target;
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
    ++size_;
    if (blocked_) return push_to_block(c);
    push_to_list(c);
    top_ = std::max(top_, c.source);
    if (size_ >= check_at_) check_density();
  }
  size_t size() const { return size_; }
  bool blocked() const { return blocked_; }

  // A Connect call begins; undo_call() removes what it added (the call failed).
  void begin_call() {
    ++call_;
    undo_.clear();
    call_size_ = size_;
  }
  void undo_call() {
    if (!blocked_) truncate_list(call_size_);
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

  // Blocks by source / block_span, for the sort: group() first (a list is grouped by block,
  // keeping its order within each), then visit(b, f) calls f(slot, target, weight, delay,
  // record) for each connection of block b in staging order, and release(b) frees a block
  // that has been consumed.
  void group() {
    if (blocked_ || !list_start_.empty()) return;
    list_start_.assign(size_t(top_ >> block_bits) + 2, 0);
    std::vector<uint64_t> seen(size_t(top_ >> 6) + 1, 0);
    list_sources_ = 0;
    for (const auto& chunk : list_)
      for (size_t i = 0; i < chunk->size; ++i) {
        const uint32_t source = chunk->source[i];
        ++list_start_[(source >> block_bits) + 1];
        const uint64_t bit = uint64_t(1) << (source & 63);
        list_sources_ += (seen[source >> 6] & bit) == 0;
        seen[source >> 6] |= bit;
      }
    for (size_t b = 1; b < list_start_.size(); ++b) list_start_[b] += list_start_[b - 1];
    std::vector<size_t> next(list_start_.begin(), list_start_.end() - 1);
    list_order_.resize(size_);
    for (size_t c = 0; c < list_.size(); ++c)
      for (size_t i = 0; i < list_[c]->size; ++i)
        list_order_[next[list_[c]->source[i] >> block_bits]++] = uint32_t(c << ListChunk::max_bits | i);
  }
  // An upper bound of the distinct sources staged (exact for a grouped list), so that the
  // sort can size its per-source columns once.
  size_t most_sources() const {
    return blocked_ ? std::min(size_, blocks_.size() * block_span) : list_start_.empty() ? size_ : list_sources_;
  }
  size_t n_blocks() const { return blocked_ ? blocks_.size() : list_start_.empty() ? 0 : list_start_.size() - 1; }
  size_t block_size(size_t b) const {
    if (b >= n_blocks()) return 0;
    return blocked_ ? blocks_[b].size : list_start_[b + 1] - list_start_[b];
  }
  template <class Visit>
  void visit(size_t b, Visit&& visit) const {
    if (b >= n_blocks()) return;
    if (!blocked_) {
      for (size_t k = list_start_[b]; k < list_start_[b + 1]; ++k) {
        const ListChunk& chunk = *list_[list_order_[k] >> ListChunk::max_bits];
        const size_t i = list_order_[k] & (ListChunk::max_capacity - 1);
        visit(uint8_t(chunk.source[i] & (block_span - 1)), chunk.target[i], chunk.weight.get(i), chunk.delay.get(i),
              chunk.record.get(i));
      }
      return;
    }
    for (const auto& p : blocks_[b].chunks) {
      const StagingChunk& chunk = *p;
      for (size_t i = 0; i < chunk.size; ++i)
        visit(chunk.slot[i], chunk.target[i], chunk.weight.get(i), chunk.delay.get(i), chunk.record.get(i));
    }
  }
  void release(size_t b) {
    if (blocked_) blocks_[b].chunks.clear();
  }
  void clear() { *this = ConnectionStaging(); }

 private:
  struct Undo {
    size_t block, size;
  };

  void push_to_block(const StagedConnection& c) {
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
  }
  void push_to_list(const StagedConnection& c) {
    if (list_.empty() || list_.back()->size == list_.back()->capacity)
      list_.push_back(std::make_unique<ListChunk>(
          list_.empty() ? ListChunk::first_capacity : std::min(2 * list_.back()->capacity, ListChunk::max_capacity)));
    ListChunk& chunk = *list_.back();
    const size_t i = chunk.size++;
    chunk.source[i] = c.source;
    chunk.target[i] = c.target;
    chunk.delay.set(i, uint16_t(c.delay), chunk.capacity);
    chunk.record.set(i, c.record, chunk.capacity);
    chunk.weight.set(i, c.weight, chunk.capacity);
  }
  // Keeps the list's first n connections.
  void truncate_list(size_t n) {
    size_t kept = 0, c = 0;
    for (; c < list_.size() && kept < n; ++c) {
      list_[c]->size = std::min(list_[c]->size, n - kept);
      kept += list_[c]->size;
    }
    list_.resize(c);
  }
  // Dense once there are as many connections as sources up to the largest (or too many for
  // the list's 32-bit order, 16 bits of chunk and 16 of index): the list moves into blocks,
  // the running call's part undoable.
  void check_density() {
    if (size_ <= top_ && size_ < (size_t(1) << 31)) {
      check_at_ *= 2;
      return;
    }
    blocked_ = true;
    const uint64_t call = call_;
    call_ = 0;  // the blocks' call before any: earlier calls' connections leave nothing to undo
    size_t n = 0;
    for (const auto& p : list_) {
      const ListChunk& chunk = *p;
      for (size_t i = 0; i < chunk.size; ++i, ++n) {
        if (n == call_size_) call_ = call;
        push_to_block({chunk.source[i], chunk.target[i], chunk.delay.get(i), chunk.record.get(i), chunk.weight.get(i)});
      }
    }
    call_ = call;
    std::vector<std::unique_ptr<ListChunk>>().swap(list_);
  }

  std::vector<std::unique_ptr<ListChunk>> list_;  // while sparse, in staging order
  std::vector<size_t> list_start_;                // grouped: the list's first entry of each block
  std::vector<uint32_t> list_order_;              // grouped: chunk << 16 | index, block by block
  size_t list_sources_ = 0;                       // grouped: the distinct sources in the list
  uint32_t top_ = 0;                              // the largest source in the list
  size_t check_at_ = 1024;
  bool blocked_ = false;
  std::vector<StagingBlock> blocks_;
  std::vector<Undo> undo_;  // blocks the current call added to, with their sizes before it
  uint64_t call_ = 1;
  size_t size_ = 0, call_size_ = 0;
};

}  // namespace ranvier
