// A spike as the kernel collects, exchanges and delivers it: who, at which step, and where
// off the grid. The exchange methods know spikes and nothing else of the kernel.
#pragma once
#include <cstdint>

namespace ranvier {

struct Spike {
  uint32_t gid;
  // Off-grid spikes (cable cells, precise models): how long before the end of step `stamp` the
  // spike happened, in the run's units of a step (exchange/spike_entry.hpp); 0 on the grid.
  uint32_t offset;
  int64_t stamp;  // step at whose end the spike happened
  bool operator<(const Spike& o) const {
    return gid != o.gid ? gid < o.gid : stamp != o.stamp ? stamp < o.stamp : offset > o.offset;
  }
};

// The number a spike carries in NEST's offset field where that is no time (kernel/spike_payloads.hpp).
struct SpikePayload {
  uint32_t gid;
  int64_t stamp;
  double value;
};

}  // namespace ranvier
