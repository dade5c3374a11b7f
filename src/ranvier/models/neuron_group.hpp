// The local nodes of one Create call on one thread, stored as structure of arrays.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/synaptic_elements.hpp"

namespace ranvier {

class NeuronModel;

struct Probe {  // a multimeter watching one neuron of the group
  uint32_t neuron;
  uint32_t multimeter;
  std::vector<int> variables;  // indices of the recorded variables in the model
  int32_t site = -1;           // where on the cell (a cable cell's CV); -1: the cell's own variables
  uint32_t delay = 0;          // steps: the connection's, as GetConnections lists it
};

struct RecorderLink {      // a spike recorder of one neuron: a device's index, its connection's delay (steps),
  uint32_t device, delay;  // receptor_type and weight (which correlation detectors read)
  uint32_t port = 0;
  double weight = 1.0;
};

// State a model keeps beyond named per-neuron scalars (a cable cell's compartments).
struct CellState {
  virtual ~CellState() = default;
  // Checkpoints: neuron i's state appended as numbers (false: a kind whose state checkpoints
  // cannot hold yet), and put back from what save appended; the group has its size.
  virtual bool save(size_t /*i*/, std::vector<double>& /*out*/) const { return false; }
  virtual void load(size_t /*i*/, const double* /*begin*/, const double* /*end*/) {}
};

struct NeuronGroup {
  const NeuronModel* model = nullptr;
  uint32_t first_lid = 0;  // offset of this group in the thread's local index space
  // Input ports: a cell of the group has `ports` input columns; the group's columns start at
  // first_input, port by port (all cells' port 0 first), so that a model's loop over one port
  // streams; connections and ring buffers address columns.
  uint32_t first_input = 0;
  uint32_t ports = 1;
  std::vector<uint32_t> gids;                                // ascending
  std::vector<std::vector<double>> vars;                     // the model's named variables, by index
  std::vector<std::vector<std::vector<double>>> lists;       // the model's list variables, by index, per neuron
  std::vector<std::vector<std::vector<double>>> list_state;  // hidden lists a model keeps per neuron (gif's adaptation)
  std::vector<std::vector<double>> internals;                // derived at calibration (propagators)
  bool shared_internals = false;                             // each internal kept once: all neurons share it
  std::vector<int32_t> counters;                             // refractory or firing counters
  std::vector<int32_t> second_counters;                      // a second count (iaf_psc_exp_htum's total refractoriness)
  std::vector<double> last_spike;                            // ms, per neuron (NEST's t_spike); empty before any
  std::vector<double> scratch;                               // per-neuron workspace of one update step
  std::vector<std::vector<RecorderLink>> spike_recorders;    // per neuron; empty when none record
  std::vector<Probe> probes;
  std::unique_ptr<CellState> state;  // null for point neurons
  std::vector<uint8_t> frozen;       // NEST's frozen nodes, which are not updated; empty: none
  StructuralState structural;        // archiving models': the calcium's time and synaptic elements

  bool is_frozen(size_t i) const { return !frozen.empty() && frozen[i]; }

  size_t size() const { return gids.size(); }
  uint32_t input(size_t i, uint32_t port = 0) const { return first_input + port * uint32_t(size()) + uint32_t(i); }
  double* var(int index) { return vars[size_t(index)].data(); }
  double* internal(int index) { return internals[size_t(index)].data(); }
  const std::vector<double>& list(int index, size_t i) const { return lists[size_t(index)][i]; }
  // Keeps each internal once when every neuron has the same (one parameter set per
  // population, the common case): the update then streams state only.
  void share_internals_if_uniform() {
    shared_internals = true;
    for (const auto& values : internals)
      for (double v : values) shared_internals = shared_internals && v == values.front();
    if (shared_internals)
      for (auto& values : internals) values.resize(values.empty() ? 0 : 1);
  }
};

}  // namespace ranvier
