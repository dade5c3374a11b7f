// A spike on the wire for the directed methods: the neuron and its time within the cycle.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/thread_state.hpp"

namespace ranvier {

// A spike's time within the cycle as one number: its step, and where spikes may be off the
// grid (cable cells) its offset in tics folded in, code = step * offsets + offset_tics with
// offsets = tics per step + 1. On the grid offsets is 1 and the code is the step.
struct LagCode {
  uint32_t offsets = 1;
  uint64_t encode(const Spike& s, int64_t origin) const {
    return uint64_t(s.stamp - origin - 1) * offsets + s.offset_tics;
  }
  Spike decode(uint32_t gid, uint64_t code, int64_t origin) const {
    return {gid, uint32_t(code % offsets), origin + 1 + int64_t(code / offsets)};
  }
};

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
