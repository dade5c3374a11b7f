#include "kernel/frozen_nodes.hpp"

namespace ranvier {

FrozenState::FrozenState(const NeuronGroup& g) {
  for (size_t i = 0; i < g.size(); ++i) {
    if (!g.frozen[i]) continue;
    Kept k;
    k.neuron = i;
    for (const std::vector<double>& var : g.vars) k.vars.push_back(var[i]);
    for (const auto& list : g.lists) k.lists.push_back(list[i]);
    for (const auto& list : g.list_state) k.list_state.push_back(list[i]);
    if (i < g.counters.size()) k.counter = g.counters[i];
    if (i < g.second_counters.size()) k.second_counter = g.second_counters[i];
    if (g.state) g.state->save(i, k.cell);
    kept_.push_back(std::move(k));
  }
}

void FrozenState::restore(NeuronGroup& g) const {
  for (const Kept& k : kept_) {
    const size_t i = k.neuron;
    for (size_t v = 0; v < g.vars.size(); ++v) g.vars[v][i] = k.vars[v];
    for (size_t l = 0; l < g.lists.size(); ++l) g.lists[l][i] = k.lists[l];
    for (size_t l = 0; l < g.list_state.size(); ++l) g.list_state[l][i] = k.list_state[l];
    if (i < g.counters.size()) g.counters[i] = k.counter;
    if (i < g.second_counters.size()) g.second_counters[i] = k.second_counter;
    if (g.state && !k.cell.empty()) g.state->load(i, k.cell.data(), k.cell.data() + k.cell.size());
  }
}

}  // namespace ranvier
