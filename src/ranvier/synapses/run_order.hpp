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
  // Finds the new order of a run's n connections; false when it is in that order already.
  bool sort(const uint32_t* target, const uint16_t* delay, size_t n) {
    if (++run_ == 0) std::fill(seen_.begin(), seen_.end(), Seen{}), run_ = 1;
    key_.resize(n);
    uint16_t low = UINT16_MAX, high = 0;
    bool ordered = true;
    for (size_t k = 0; k < n; ++k) {
      const uint32_t t = target[k];
      if (t >= seen_.size()) seen_.resize(size_t(t) + 1);
      Seen& s = seen_[t];
      if (s.run != run_) s.run = run_, s.first = delay[k];
      key_[k] = s.first;
      low = std::min(low, key_[k]), high = std::max(high, key_[k]);
      // a pair's later connections sit right after its first: equal keys, equal targets
      if (k > 0 && ordered) ordered = key_[k - 1] < key_[k] || (key_[k - 1] == key_[k] && target[k - 1] <= target[k]);
    }
    if (ordered) return false;
    const size_t span = size_t(high - low) + 1;
    if (span > n) {  // few connections over many delays: one key (delay, target, position) each
      item_.resize(n);
      for (size_t k = 0; k < n; ++k) item_[k] = (uint64_t(key_[k]) << 48) | (uint64_t(target[k]) << 16) | k;
      std::sort(item_.begin(), item_.end());
      position_mask_ = 0xffff;
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
    position_mask_ = 0xffffffff;
    return true;
  }

  // Moves values[0..n) (each `width` wide) into the new order, through a scratch copy.
  template <class T>
  void apply(T* values, size_t n, size_t width = 1) {
    scratch_.resize(n * width * sizeof(T));
    std::memcpy(scratch_.data(), values, n * width * sizeof(T));
    const T* from = reinterpret_cast<const T*>(scratch_.data());
    for (size_t k = 0; k < n; ++k) std::copy_n(from + (item_[k] & position_mask_) * width, width, values + k * width);
  }

 private:
  struct Seen {
    uint32_t run = 0;    // in which a target was last seen
    uint16_t first = 0;  // the delay of its first connection in that run
  };
  std::vector<Seen> seen_;
  std::vector<uint16_t> key_;
  std::vector<size_t> start_, next_;
  std::vector<uint64_t> item_;  // (delay << 48 |) target << 16 or 32 | position
  std::vector<unsigned char> scratch_;
  uint64_t position_mask_ = 0;  // of item_: the position in the run
  uint32_t run_ = 0;
};

}  // namespace ranvier
