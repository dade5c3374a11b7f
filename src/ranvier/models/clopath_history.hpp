// Clopath et al. (2010)'s voltage-based plasticity as NEST 3.10 has it (its ClopathArchivingNode
// and clopath_synapse): a neuron writes, at the end of each step, a potentiation entry where its
// potential exceeds theta_plus while its delayed u_bar_plus exceeds theta_minus, and a
// depression value where its delayed u_bar_minus exceeds theta_minus; its clopath synapses read
// the entries between their source's spikes, and the depression value at each spike, through
// their dendritic delay. The delays of u_bar_plus and u_bar_minus (delay_u_bars) start with zeros,
// as NEST's buffers do.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "models/neuron_model.hpp"
#include "models/post_history.hpp"

namespace ranvier {

// NEST's names and defaults of the parameters every Clopath neuron has.
inline const std::vector<Variable>& clopath_variables() {
  static const std::vector<Variable> vars{{"A_LTD", 14.0e-5, ""},          {"A_LTP", 8.0e-5, ""},
                                          {"u_ref_squared", 60.0, "mV^2"}, {"theta_plus", -45.3, "mV"},
                                          {"theta_minus", -70.6, "mV"},    {"A_LTD_const", 1.0, "", true},
                                          {"delay_u_bars", 5.0, "ms"}};
  return vars;
}

// One neuron's: its potentiation entries, depression values by step, and the delays of its
// filtered potentials.
class ClopathHistory {
 public:
  // The step ending at `stamp`: the potential u and the filtered potentials, with the neuron's
  // parameters (clopath_variables(), from index `first` of its variables); `incoming` synapses
  // read the history, depression values `keep` steps back.
  void write(const NeuronGroup& g, size_t i, int first, int64_t stamp, double h, double u, double u_bar_plus,
             double u_bar_minus, double u_bar_bar, uint32_t incoming, int64_t keep);
  // Visits the potentiation entries written at steps t1 < stamp <= t2, counting each as read.
  template <class Visit>
  void visit_potentiation(int64_t t1, int64_t t2, Visit visit) {
    ltp_.visit(t1, t2, visit);
  }
  // The depression value of the step ending at `stamp` (0 where none was written).
  double depression(int64_t stamp) const;
  // Checkpoints: the histories and the delayed potentials appended as numbers, and put back.
  void save(std::vector<double>& out) const;
  const double* load(const double* from);

 private:
  StepHistory ltp_;
  std::deque<StepHistory::Entry> ltd_;
  std::vector<double> delayed_plus_, delayed_minus_;  // delay_u_bars + 1 steps, ring
  size_t next_ = 0;
};

// What the neurons that clopath synapses target keep: one history per neuron.
struct ClopathState final : PostHistoryState {
  explicit ClopathState(size_t n) : PostHistoryState(n), histories(n) {}
  std::vector<ClopathHistory> histories;
  // Neuron i's step ending at `stamp` (ClopathHistory::write).
  void write(const NeuronGroup& g, size_t i, int first, int64_t stamp, double h, double u, double u_bar_plus,
             double u_bar_minus, double u_bar_bar) {
    histories[i].write(g, i, first, stamp, h, u, u_bar_plus, u_bar_minus, u_bar_bar, incoming[i], keep);
  }
  bool save(size_t i, std::vector<double>& out) const override {
    histories[i].save(out);
    return true;
  }
  void load(size_t i, const double* from, const double*) override { histories[i].load(from); }
};

inline ClopathState& clopath_state(NeuronGroup& g) { return static_cast<ClopathState&>(*g.state); }

}  // namespace ranvier
