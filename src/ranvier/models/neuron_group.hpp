// The local nodes of one Create call on one thread, stored as structure of arrays.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

namespace ranvier {

class NeuronModel;

// Post-synaptic spike history for spike-timing dependent plasticity (NEST's archiving
// node): each entry keeps the spike time, the trace K- after it and how many incoming
// plastic synapses have read it.
struct SpikeArchive {
  struct Entry {
    double t_ms;
    double k_minus;
    uint32_t reads;
  };
  std::deque<Entry> history;
  double k_minus = 0.0;
  double last_spike_ms = -1.0;
  uint32_t n_incoming = 0;

  void record(double t_ms, double tau_minus);
  // Trace K- just before time t (spikes at exactly t do not count).
  double k_minus_at(double t_ms, double tau_minus) const;
  // Entries with t1 < t <= t2, each counted as read once; drops entries nobody needs.
  std::pair<size_t, size_t> window(double t1_ms, double t2_ms, double max_delay_ms);
};

struct Probe {  // a multimeter watching one neuron of the group
  uint32_t neuron;
  uint32_t multimeter;
  std::vector<int> variables;  // indices of the recorded variables in the model
};

struct NeuronGroup {
  const NeuronModel* model = nullptr;
  uint32_t first_lid = 0;              // offset of this group in the thread's local index space
  std::vector<uint32_t> gids;          // ascending
  std::vector<std::vector<double>> vars;       // the model's named variables, by index
  std::vector<std::vector<double>> internals;  // derived at calibration (propagators)
  std::vector<int32_t> counters;               // refractory or firing counters
  std::vector<std::vector<uint32_t>> spike_recorders;  // per neuron; empty when none record
  std::vector<Probe> probes;

  size_t size() const { return gids.size(); }
  double* var(int index) { return vars[size_t(index)].data(); }
  double* internal(int index) { return internals[size_t(index)].data(); }
};

}  // namespace ranvier
