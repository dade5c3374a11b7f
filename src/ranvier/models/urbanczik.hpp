// Urbanczik and Senn (2014)'s dendritic prediction of somatic spiking as NEST 3.10 has it (its
// UrbanczikArchivingNode, pp_cond_exp_mc_urbanczik and urbanczik_synapse): at the end of each
// step the neuron writes the error between its somatic spikes and the rate its dendrite predicts,
// (n_spikes - phi(V_w*) h) h(V_w*), V_w* the dendritic potential attenuated to the soma; its
// urbanczik synapses integrate the entries between their source's spikes through their delay.
#pragma once
#include <vector>

#include "models/post_history.hpp"

namespace ranvier {

struct UrbanczikState final : PostHistoryState {
  explicit UrbanczikState(size_t n) : PostHistoryState(n), histories(n), dendrite(n) {}
  std::vector<StepHistory> histories;
  // What the synapses read of their target's dendrite, set for each run.
  struct Dendrite {
    double g_L, C_m, tau_syn_ex, tau_syn_in;
  };
  std::vector<Dendrite> dendrite;
  bool save(size_t i, std::vector<double>& out) const override {
    histories[i].save(out);
    return true;
  }
  void load(size_t i, const double* from, const double*) override { histories[i].load(from); }
};

inline UrbanczikState& urbanczik_state(NeuronGroup& g) { return static_cast<UrbanczikState&>(*g.state); }

}  // namespace ranvier
