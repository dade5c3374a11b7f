// NEST's frozen nodes are not updated: a group's update runs over all its neurons (they are
// vectorised), so the frozen ones' state is kept before it and put back after; their spikes and
// samples are not made (UpdateContext). The input that reached them meanwhile is dropped.
#pragma once
#include <cstdint>
#include <vector>

#include "models/neuron_model.hpp"

namespace ranvier {

class FrozenState {
 public:
  explicit FrozenState(const NeuronGroup& g);
  void restore(NeuronGroup& g) const;

 private:
  struct Kept {
    size_t neuron;
    std::vector<double> vars, cell;
    std::vector<std::vector<double>> lists, list_state;
    int32_t counter = 0, second_counter = 0;
  };
  std::vector<Kept> kept_;
};

// The group's update, its frozen neurons left as they were.
inline void update_group(NeuronGroup& g, UpdateContext& ctx) {
  if (g.frozen.empty()) return g.model->update(g, ctx);
  const FrozenState kept(g);
  g.model->update(g, ctx);
  kept.restore(g);
}

}  // namespace ranvier
