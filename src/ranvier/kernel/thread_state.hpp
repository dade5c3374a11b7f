// Everything one thread (virtual process) owns: its neurons, their input buffers and the
// incoming connections of those neurons.
#pragma once
#include <cstdint>
#include <exception>
#include <vector>

#include "core/spike.hpp"
#include "devices/device.hpp"
#include "models/neuron_group.hpp"
#include "models/ring_buffers.hpp"
#include "models/spike_archive.hpp"
#include "synapses/connection_table.hpp"
#include "synapses/neuromodulation.hpp"

namespace ranvier {

// A multimeter recording a generator's recordable (NEST's "I", "rate"): devices' indices, and the node
// ids the generator stimulates (filled before each simulation).
struct GeneratorProbe {
  uint32_t generator, multimeter;
  std::vector<uint32_t> targets;
  uint32_t delay = 0;  // steps: the connection's, as GetConnections lists it
};

// The neuron of an input column, for synapses that reach into their target's state (e-prop, NESTML).
struct InputOwner {
  NeuronGroup* group = nullptr;
  uint32_t neuron = 0;
};

struct ThreadState {
  std::vector<NeuronGroup> groups;
  std::vector<uint32_t> lid_gid;         // gid of every local index
  std::vector<uint32_t> input_gid;       // gid of the cell owning every input column
  std::vector<uint32_t> input_receptor;  // receptor_type of every input column (weight_recorder)
  RingBuffers input;
  std::vector<ConnectionTable> tables;       // by synapse model id
  std::vector<ConnectionTable> long_tables;  // connections between areas, by synapse model id
  std::vector<StimulusConnection> stimuli;
  // Generators connected to spike recorders (NEST's Connect(generator, spike_recorder)): each
  // such connection's train goes to a column of its own, whose count the recorder reads when
  // the step is updated. tap_stimuli[k] writes column k; tap_recorder[k] is its recorder.
  std::vector<StimulusConnection> tap_stimuli;
  std::vector<uint32_t> tap_recorder;
  std::vector<uint32_t> tap_port;  // the receptor_type of tap k's connection
  RingBuffers tap_input;
  std::vector<std::vector<uint64_t>> tap_stimulus_state;
  std::vector<GeneratorProbe> generator_probes;       // rank 0, on the generator's thread
  std::vector<std::vector<uint64_t>> stimulus_state;  // by connection in stimuli (Stimulus::state)
  SpikeArchives archives;                             // by input column, when plastic synapses exist
  Neuromodulators modulators;                         // the volume transmitters' spikes on this thread
  std::vector<Spike> emitted;                         // spikes of the current slice
  std::vector<Spike> flushes;                         // flush events of the current slice (kernel/flush_events.hpp)
  std::vector<SpikePayload> payloads;                 // numbers the slice's spikes carry (kernel/spike_payloads.hpp)
  std::vector<InputOwner> input_owners;  // by input column, where e-prop or NESTML synapses exist (else empty)
  // the presynaptic intervals of each eprop_synapse_bsshslm_2020 since its last update (its
  // record holds its list's index)
  std::vector<std::vector<int64_t>> spike_intervals;
  std::vector<RecordedEvents> recorded;  // by device index
  uint64_t spikes_emitted = 0;
  // work done, for time per unit: synaptic events delivered, neuron steps, Poisson draws
  uint64_t static_events = 0, plastic_events = 0, neuron_steps = 0, poisson_draws = 0;
  std::exception_ptr failure;  // the first UpdateContext::fail of this Simulate call

  size_t n_local() const { return lid_gid.size(); }
  size_t n_inputs() const { return input_gid.size(); }
};

}  // namespace ranvier
