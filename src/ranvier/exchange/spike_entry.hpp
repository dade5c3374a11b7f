// A spike on the wire for the directed methods: the neuron and its time within the cycle.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/spike.hpp"

namespace ranvier {

// A spike's time within the cycle as one number: its step, and where spikes may be off the
// grid (cable cells, precise models) its offset folded in, code = step * offsets + offset with
// offsets = units + 1 (an offset is 0 ... units units of a step). On the grid offsets is 1
// and the code is the step.
struct LagCode {
  uint32_t offsets = 1;
  // The finest units of a step for which codes of `steps` steps fit 32 bits: a power of two, so
  // that offsets of dyadic fractions of the step travel exactly (2^27 for 20 steps).
  static uint32_t units_for(int64_t steps) {
    uint32_t units = 1u << 31;
    while (units > 1 && uint64_t(steps) * (uint64_t(units) + 1) > UINT32_MAX) units >>= 1;
    return units;
  }
  uint64_t encode(const Spike& s, int64_t origin) const { return uint64_t(s.stamp - origin - 1) * offsets + s.offset; }
  Spike decode(uint32_t gid, uint64_t code, int64_t origin) const {
    return {gid, uint32_t(code % offsets), origin + 1 + int64_t(code / offsets)};
  }
};

// A spike's offset (ms before the end of its step of h ms) in `units` of the step, to the
// nearest, and back.
inline uint32_t offset_in_units(double offset, double h, uint32_t units) {
  if (!(offset > 0.0)) return 0;
  return uint32_t(std::min<int64_t>(std::llround(offset / h * double(units)), units));
}
inline double ms_of_units(uint32_t offset, double h, uint32_t units) {
  return offset ? double(offset) * h / double(units) : 0.0;
}

struct SpikeEntry {
  uint32_t gid;
  uint32_t lag;  // LagCode's code
};

inline SpikeEntry to_entry(const Spike& s, int64_t origin, const LagCode& code) {
  return {s.gid, uint32_t(code.encode(s, origin))};
}
inline Spike to_spike(const SpikeEntry& e, int64_t origin, const LagCode& code) {
  return code.decode(e.gid, e.lag, origin);
}

}  // namespace ranvier
