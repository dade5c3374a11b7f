// A connection call's weights or delays as the sink reads them. Most rules add an owner's
// connections index after index, so random values are drawn a window of consecutive indices
// at a time (two normals to a Philox block) and read from there; a value still depends only
// on (seed, call, owner, index), wherever the window began.
#pragma once
#include <cstdint>

#include "core/value_spec.hpp"

namespace ranvier {

class DrawnValues {
 public:
  DrawnValues(const ValueSpec& spec, uint32_t seed, Purpose purpose, uint32_t call)
      : spec_(spec), seed_(seed), purpose_(purpose), call_(call) {}

  double operator()(uint32_t owner, uint64_t index, uint64_t array_index) {
    switch (spec_.kind) {
      case ValueSpec::Kind::constant:
        return spec_.p0;
      case ValueSpec::Kind::array:
        return spec_.values[array_index];
      default:
        break;
    }
    if (owner != owner_ || index - first_ >= filled_) {
      // a window where the rule goes on from the last one (begun at a whole run of words),
      // else this value alone (one value per owner, or a thread's share of an owner's indices)
      const bool goes_on = owner == owner_ && index == first_ + filled_;
      owner_ = owner;
      first_ = goes_on ? index & ~uint64_t(run_words - 1) : index;
      filled_ = goes_on ? window : 1;
      spec_.first_draws(stream(), first_, filled_, drawn_);
    }
    return spec_.bounded(drawn_[index - first_], stream(), index);
  }

 private:
  // Long enough to amortise the refill, short enough that a target's last window wastes few draws.
  static constexpr uint64_t window = 2 * run_words;
  Stream stream() const { return Stream(seed_, purpose_, call_, owner_); }

  const ValueSpec& spec_;
  uint32_t seed_;
  Purpose purpose_;
  uint32_t call_;
  uint32_t owner_ = 0;
  uint64_t first_ = 0, filled_ = 0;  // drawn_ holds the first draws of [first_, first_ + filled_)
  double drawn_[window];
};

}  // namespace ranvier
