// Everything one thread (virtual process) owns: its neurons, their input buffers and the
// incoming connections of those neurons.
#pragma once
#include <cstdint>
#include <vector>

#include "devices/device.hpp"
#include "models/neuron_group.hpp"
#include "models/ring_buffers.hpp"
#include "models/spike_archive.hpp"
#include "synapses/connection_table.hpp"

namespace ranvier {

struct Spike {
  uint32_t gid;
  int64_t stamp;  // step at whose end the spike happened
  bool operator<(const Spike& o) const { return gid != o.gid ? gid < o.gid : stamp < o.stamp; }
};

struct ThreadState {
  std::vector<NeuronGroup> groups;
  std::vector<uint32_t> lid_gid;   // gid of every local index
  RingBuffers input;
  std::vector<ConnectionTable> tables;       // by synapse model id
  std::vector<ConnectionTable> long_tables;  // connections between areas, by synapse model id
  std::vector<StimulusConnection> stimuli;
  std::vector<std::vector<uint64_t>> stimulus_state;  // by connection in stimuli (Stimulus::state)
  SpikeArchives archives;              // by local index, when plastic synapses exist
  std::vector<uint8_t> counts_spikes;  // by local index: parrots take every spike as weight 1
  bool has_parrots = false;
  std::vector<Spike> emitted;          // spikes of the current slice
  std::vector<RecordedEvents> recorded;  // by device index
  uint64_t spikes_emitted = 0;
  // work done, for time per unit: synaptic events delivered, neuron steps, Poisson draws
  uint64_t static_events = 0, plastic_events = 0, neuron_steps = 0, poisson_draws = 0;

  size_t n_local() const { return lid_gid.size(); }
};

}  // namespace ranvier
