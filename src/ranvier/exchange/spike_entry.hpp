// A spike on the wire for the directed methods: the neuron and its step within the cycle.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/thread_state.hpp"

namespace ranvier {

struct SpikeEntry {
  uint32_t gid;
  uint32_t lag;
};

inline SpikeEntry to_entry(const Spike& s, int64_t origin) { return {s.gid, uint32_t(s.stamp - origin - 1)}; }
inline Spike to_spike(const SpikeEntry& e, int64_t origin) { return {e.gid, origin + 1 + int64_t(e.lag)}; }

}  // namespace ranvier
