// The boundaries of a source-sorted table's runs (where each source's connections begin, and
// the table's end) in 1 to 4 bytes a run instead of 8: a 64-bit base per group of 64 runs plus
// each run's distance from its group's base, kept in the fewest bytes that hold every distance
// of the table once it is complete. One rank of many holds about one connection per source
// (Ippen et al. 2017's sparse regime), so there the index costs as much as the connections, and
// a group of 64 runs spans fewer than 256 connections.
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ranvier {

class RunOffsets {
 public:
  static constexpr unsigned group_bits = 6;

  size_t operator[](size_t i) const { return base_[i >> group_bits] + distance(i); }
  size_t size() const { return size_; }
  size_t back() const { return size() ? (*this)[size() - 1] : 0; }

  // While the table is built (4 bytes a distance).
  void push_back(size_t offset) {
    if ((size_ & ((size_t(1) << group_bits) - 1)) == 0) base_.push_back(offset);
    const size_t distance = offset - base_.back();
    if (distance > UINT32_MAX)
      throw std::length_error("one thread's connections of 64 neighbouring sources in one synapse model exceed 2^32 (" +
                              std::to_string(distance) + ")");
    wide_.push_back(uint32_t(distance));
    ++size_;
  }
  void reserve(size_t n) {
    wide_.reserve(n);
    base_.reserve((n >> group_bits) + 1);
  }
  // The table is complete: the distances in the fewest bytes that hold them all.
  void finish() {
    base_.shrink_to_fit();
    const uint32_t most = wide_.empty() ? 0 : *std::max_element(wide_.begin(), wide_.end());
    if (most <= UINT8_MAX)
      narrow(byte_, uint8_t(1));
    else if (most <= UINT16_MAX)
      narrow(half_, uint8_t(2));
    else
      wide_.shrink_to_fit();
  }
  size_t bytes() const {
    return wide_.capacity() * sizeof(uint32_t) + half_.capacity() * sizeof(uint16_t) + byte_.capacity() +
           base_.capacity() * sizeof(size_t);
  }

 private:
  size_t distance(size_t i) const {
    switch (width_) {
      case 1:
        return byte_[i];
      case 2:
        return half_[i];
      default:
        return wide_[i];
    }
  }
  template <class T>
  void narrow(std::vector<T>& to, uint8_t width) {
    to.assign(wide_.begin(), wide_.end());
    std::vector<uint32_t>().swap(wide_);
    width_ = width;
  }

  std::vector<uint32_t> wide_;  // the distances from the group's base, in 4 bytes (while built) ...
  std::vector<uint16_t> half_;  // ... or in 2 ...
  std::vector<uint8_t> byte_;   // ... or in 1
  uint8_t width_ = 4;
  size_t size_ = 0;
  std::vector<size_t> base_;  // the first offset of each group of 64 runs
};

}  // namespace ranvier
