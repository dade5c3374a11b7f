// Neuromodulated plasticity (NEST's volume transmitter; Potjans et al. 2010): a volume
// transmitter has an instance on every thread, each receiving the spikes of all its sources
// (dopaminergic neurons). The synapses that name it read its spikes at each presynaptic spike
// and are all brought up to date every deliver_interval x min_delay steps, after which its
// list starts again from a pseudo spike at that time, as NEST's spikecounter list does.
#pragma once
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ranvier {

struct ModulatorSpike {
  int64_t stamp;        // the step at whose end it arrived
  double t;             // that time in ms, as NEST computes it
  double multiplicity;  // spikes that arrived in that step (0: the pseudo spike)
};
using ModulatorSpikes = std::vector<ModulatorSpike>;

// The volume transmitters' spike lists of one thread, by node id.
class Neuromodulators {
 public:
  // A list begins with a pseudo spike at time 0 (NEST's buffers of a new node).
  ModulatorSpikes& of(uint32_t gid) { return lists_.try_emplace(gid, ModulatorSpikes{{0, 0.0, 0.0}}).first->second; }
  // Every list, and (checkpoints) all of them replaced.
  const std::map<uint32_t, ModulatorSpikes>& lists() const { return lists_; }
  void assign(std::map<uint32_t, ModulatorSpikes> lists) { lists_ = std::move(lists); }

 private:
  std::map<uint32_t, ModulatorSpikes> lists_;
};

}  // namespace ranvier
