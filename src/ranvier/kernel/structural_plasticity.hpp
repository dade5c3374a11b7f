// NEST's structural plasticity (Diaz-Pier et al. 2016; NEST's SPManager): at the start of every
// cycle whose time is a multiple of structural_plasticity_update_interval, for each of the
// structural_plasticity_synapses (in the order of their names), synapses are removed where a
// neuron has fewer synaptic elements than connected ones, and the vacant elements of the whole
// network are paired at random into new synapses. Every rank gathers the network's counts in the
// order of node ids and draws the same numbers (keyed by the update's step), so the connections
// made and removed are the same for any partition: threads and processes, which NEST refuses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernel/local_network.hpp"

namespace ranvier {

// One entry of structural_plasticity_synapses: what its synapses are and which elements they join.
struct StructuralSynapse {
  std::string name;
  uint32_t synapse = 0;   // the kernel's synapse model id
  std::string pre, post;  // the elements a synapse takes on its source and its target
  bool allow_autapses = true, allow_multapses = true;
  double weight = 1.0, delay = 1.0;  // of the synapses it makes (delay in ms)
};

class StructuralPlasticity {
 public:
  bool enabled() const { return enabled_; }
  void enable(bool on) { enabled_ = on; }
  // Sorted by name, as NEST's dictionary has them.
  void set_synapses(std::vector<StructuralSynapse> synapses);
  const std::vector<StructuralSynapse>& synapses() const { return synapses_; }
  // The delays its synapses will have (steps), for the cycle: NEST counts them among its delay
  // extrema before any of them exists.
  DelayExtrema delays(double h) const;

  // Every local archiving neuron's calcium and elements brought up to t ms (as NEST at the
  // end of each run, and before each update).
  static void advance_all(LocalNetwork& net, double t, double h);
  // The update at `step` (t ms); collective.
  void update(LocalNetwork& net, Communicator& comm, int64_t step, double t, double h, uint32_t seed) const;

 private:
  bool enabled_ = false;
  std::vector<StructuralSynapse> synapses_;
};

}  // namespace ranvier
