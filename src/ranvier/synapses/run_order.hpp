// The order in which a source's run is kept when delays are drawn per connection: by delay,
// then target, so that a spike's deliveries walk each ring-buffer row forwards instead of
// scattering over the delay slots. The connections of one (source, target) pair stay
// together, in creation order, at the delay of the first of them: multapses keep their
// names ("the k-th connection made with that pair", synapses/multapse_index.hpp) and
// GetConnections' order, and every ring-buffer slot receives its sums in the same order as
// before, so spikes do not change.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ranvier {

class RunOrder {
 public:
  // Fills order() with the positions (0..n) of the run's connections in their new order;
  // returns false (order() left stale) when the run is in that order already.
  bool sort(const uint32_t* target, const uint16_t* delay, size_t n) {
    ++run_;
    key_.resize(n);
    uint16_t low = UINT16_MAX, high = 0;
    bool ordered = true;
    for (size_t k = 0; k < n; ++k) {
      const uint32_t t = target[k];
      if (t >= seen_.size()) seen_.resize(size_t(t) + 1, 0), first_.resize(size_t(t) + 1);
      if (seen_[t] != run_) seen_[t] = run_, first_[t] = delay[k];
      key_[k] = first_[t];
      low = std::min(low, key_[k]), high = std::max(high, key_[k]);
      // a pair's later connections sit right after its first: equal keys, equal targets
      if (k > 0 && ordered)
        ordered = key_[k - 1] < key_[k] || (key_[k - 1] == key_[k] && target[k - 1] <= target[k]);
    }
    if (ordered) return false;
    order_.resize(n);
    const size_t span = size_t(high - low) + 1;
    if (span > n) {  // few connections over many delays: one key (delay, target, position) each
      item_.resize(n);
      for (size_t k = 0; k < n; ++k) item_[k] = (uint64_t(key_[k]) << 48) | (uint64_t(target[k]) << 16) | k;
      std::sort(item_.begin(), item_.end());
      for (size_t k = 0; k < n; ++k) order_[k] = uint32_t(item_[k] & 0xffff);
      return true;
    }
    // A counting sort by key, then each key's (target, position) sorted; the positions make
    // the values distinct, so the order is stable.
    start_.assign(span + 1, 0);
    for (size_t k = 0; k < n; ++k) ++start_[key_[k] - low + 1];
    for (size_t d = 0; d < span; ++d) start_[d + 1] += start_[d];
    next_.assign(start_.begin(), start_.end() - 1);
    item_.resize(n);
    for (size_t k = 0; k < n; ++k) item_[next_[key_[k] - low]++] = (uint64_t(target[k]) << 32) | k;
    for (size_t d = 0; d < span; ++d) {
      const auto begin = item_.begin() + long(start_[d]), end = item_.begin() + long(start_[d + 1]);
      if (!std::is_sorted(begin, end)) std::sort(begin, end);
    }
    for (size_t k = 0; k < n; ++k) order_[k] = uint32_t(item_[k]);
    return true;
  }
  const std::vector<uint32_t>& order() const { return order_; }

  // Moves values[0..n) (each `width` wide) into the new order, through a scratch copy.
  template <class T>
  void apply(T* values, size_t n, size_t width = 1) {
    scratch_.resize(n * width * sizeof(T));
    std::memcpy(scratch_.data(), values, n * width * sizeof(T));
    const T* from = reinterpret_cast<const T*>(scratch_.data());
    for (size_t k = 0; k < n; ++k) std::copy_n(from + size_t(order_[k]) * width, width, values + k * width);
  }

 private:
  std::vector<uint64_t> seen_;    // run in which a target was last seen
  std::vector<uint16_t> first_;   // the delay of its first connection in that run
  std::vector<uint16_t> key_;
  std::vector<size_t> start_, next_;
  std::vector<uint64_t> item_;    // (delay << 48 |) target << 16 or 32 | position
  std::vector<unsigned char> scratch_;
  std::vector<uint32_t> order_;
  uint64_t run_ = 0;
};

}  // namespace ranvier
