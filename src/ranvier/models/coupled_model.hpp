// Nodes coupled through NEST's secondary events rather than spikes: rate neurons (their rate,
// models/rate_neurons.cpp) and neurons with gap junctions (their membrane potential,
// models/hh_psc_alpha_gap.cpp). Once per cycle each sends values for every step of the cycle;
// kernel/coupling.hpp carries them to the partners. Instantaneous couplings (instantaneous
// rate connections, gap junctions) are iterated within the cycle by waveform relaxation
// (Hahne et al. 2015): every node runs the cycle on its partners' values of the last pass.
#pragma once
#include <algorithm>
#include <vector>

#include "models/neuron_model.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {

// Values of each neuron of a group, `rows` of them together: a connection adds to the whole
// cycle of one neuron.
struct PerNeuron {
  size_t rows = 0;
  std::vector<double> values;
  void assign(size_t per_neuron, size_t n) { rows = per_neuron, values.assign(rows * n, 0.0); }
  void clear() { std::fill(values.begin(), values.end(), 0.0); }
  double* of(size_t i) { return values.data() + i * rows; }
  double& at(size_t row, size_t i) { return values[i * rows + row]; }
  double at(size_t row, size_t i) const { return values[i * rows + row]; }
};

// A coupled group's buffers for one cycle of `steps` steps:
// - sent: the values each neuron sends, `per_step` for every step (a rate; a gap junction's
//   interpolation coefficients of the potential over the step, the interpolation order + 1);
// - instant_ex, instant_in: the instantaneous rate input by sign per step (a transformer uses
//   the excitatory one only); a gap junction's summed coefficients, per_step for every step, in
//   instant_ex, with the summed conductance of each neuron's junctions in conductance;
// - last: the last relaxation pass's state per step, to see it settle.
struct CouplingBuffers : CellState {
  size_t steps = 0, n = 0, per_step = 1;
  PerNeuron sent, instant_ex, instant_in, last;
  std::vector<double> conductance;
  void shape(size_t cycle, size_t neurons, size_t values_per_step) {
    if (cycle == steps && neurons == n && values_per_step == per_step) return;
    steps = cycle, n = neurons, per_step = values_per_step;
    sent.assign(steps * per_step, n);
    instant_ex.assign(steps * per_step, n);
    instant_in.assign(steps, n);
    last.assign(steps, n);
    conductance.assign(n, 0.0);
  }
};

// What an e-prop readout sends at each step: the value rate connections carry (its unnormalized
// readout signal, which other readouts normalize by) and its error signal, which learning-signal
// connections carry.
enum ReadoutValue : size_t { rate_value, learning_value, readout_values };

class CoupledModel {
 public:
  virtual ~CoupledModel() = default;
  // The connections the nodes send and take (rate neurons: both kinds of rate connection;
  // none: spike connections).
  virtual bool joins(SecondaryEvent kind) const = 0;
  // Those of them the nodes send (by default all they join), and whether they send values at
  // all (e-prop neurons only take learning signals).
  virtual bool sends(SecondaryEvent kind) const { return joins(kind); }
  virtual bool sends_values() const { return true; }
  // The input port a connection of the kind delivers into (a slow inward current's own port).
  virtual uint32_t port_of(SecondaryEvent /*kind*/) const { return 0; }
  // Throws NEST's error where a connection of the kind may not target the receptor.
  virtual void check_receptor(SecondaryEvent /*kind*/, uint32_t /*receptor*/) const {}
  // Values sent per step, given the kernel's wfr_interpolation_order.
  virtual size_t values_per_step(int /*interpolation_order*/) const { return 1; }
  // One waveform-relaxation pass over steps [ctx.from, ctx.to): the values each neuron sends,
  // from the current instantaneous input, into CouplingBuffers::sent; the state stays as it
  // was. True where no neuron moved more than tol from the last pass.
  virtual bool relax(NeuronGroup& g, UpdateContext& ctx, double tol) const = 0;
  // What a neuron sends for every step of the next cycle until relaxation refines it (its
  // only value without relaxation): NEST sends the last output for every step.
  virtual double held(const NeuronGroup& g, size_t i) const = 0;
  // Rate neurons: what a connection of weight w adds for a sent value (w v, or w phi(v) where
  // the target applies its gain to each input), and whether input of either sign goes to one
  // buffer (the transformers).
  virtual double coupled(const NeuronGroup&, size_t, double w, double value) const { return w * value; }
  virtual bool one_sign() const { return false; }
  static CouplingBuffers& buffers(NeuronGroup& g) { return static_cast<CouplingBuffers&>(*g.state); }
  static const CouplingBuffers& buffers(const NeuronGroup& g) { return static_cast<const CouplingBuffers&>(*g.state); }
};

}  // namespace ranvier
