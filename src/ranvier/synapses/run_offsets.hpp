// The boundaries of a source-sorted table's runs (where each source's connections begin, and
// the table's end) in about 4 bytes a run instead of 8: a 64-bit base per group of 64 runs
// plus each run's 32-bit distance from its group's base. One rank of many holds about one
// connection per source (Ippen et al. 2017's sparse regime), so there the index costs as much
// as the connections.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ranvier {

class RunOffsets {
 public:
  static constexpr unsigned group_bits = 6;

  size_t operator[](size_t i) const { return base_[i >> group_bits] + distance_[i]; }
  size_t size() const { return distance_.size(); }
  size_t back() const { return size() ? (*this)[size() - 1] : 0; }

  void push_back(size_t offset) {
    if ((size() & ((size_t(1) << group_bits) - 1)) == 0) base_.push_back(offset);
    const size_t distance = offset - base_.back();
    if (distance > UINT32_MAX)
      throw std::length_error("one thread's connections of 64 neighbouring sources in one synapse model exceed 2^32 (" +
                              std::to_string(distance) + ")");
    distance_.push_back(uint32_t(distance));
  }
  void reserve(size_t n) {
    distance_.reserve(n);
    base_.reserve((n >> group_bits) + 1);
  }
  void shrink_to_fit() {
    distance_.shrink_to_fit();
    base_.shrink_to_fit();
  }
  size_t bytes() const { return distance_.capacity() * sizeof(uint32_t) + base_.capacity() * sizeof(size_t); }

 private:
  std::vector<uint32_t> distance_;  // from the group's base
  std::vector<size_t> base_;        // the first offset of each group of 64 runs
};

}  // namespace ranvier
