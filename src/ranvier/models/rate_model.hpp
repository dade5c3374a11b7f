// What the kernel's rate coupling (kernel/rate_coupling.hpp) needs of a rate neuron (NEST's
// *_rate_ipn, *_rate_opn and rate_transformer_* models): rates travel once per cycle as NEST's
// secondary events, the rate at the start of each step of the cycle for delayed connections
// (rate_connection_delayed), and for instantaneous ones (rate_connection_instantaneous) a
// value per step that waveform relaxation iterates within the cycle (Hahne et al. 2015).
#pragma once
#include <vector>

#include "models/neuron_model.hpp"

namespace ranvier {

// A rate group's buffers for one cycle of `steps` steps, each [steps][n] lag-major: the
// instantaneous input by sign (a transformer uses the excitatory one only), the rate each
// neuron sends for every step, and under waveform relaxation the last iteration's rates.
struct RateBuffers final : CellState {
  size_t steps = 0, n = 0;
  std::vector<double> instant_ex, instant_in, sent, last;
  void shape(size_t cycle, size_t neurons) {
    if (cycle == steps && neurons == n) return;
    steps = cycle, n = neurons;
    for (auto* v : {&instant_ex, &instant_in, &sent, &last}) v->assign(steps * n, 0.0);
  }
  double& at(std::vector<double>& v, int lag, size_t i) { return v[size_t(lag) * n + i]; }
};

class RateModel {
 public:
  virtual ~RateModel() = default;
  // What a connection of weight w adds for a sent value: w v, or w phi(v) where the target
  // applies its nonlinearity to each input (linear_summation false).
  virtual double coupled(const NeuronGroup& g, size_t i, double w, double value) const = 0;
  // Input of either sign goes to one buffer (the transformers) rather than two.
  virtual bool one_sign() const = 0;
  // One waveform-relaxation pass over steps [ctx.from, ctx.to): the rates each neuron sends,
  // from the current instantaneous input, into RateBuffers::sent; the state stays as it was.
  // True where no rate moved more than tol from the last pass.
  virtual bool relax(NeuronGroup& g, UpdateContext& ctx, double tol) const = 0;
  // What instantaneous connections carry through the next cycle until relaxation refines it
  // (its only value without relaxation): NEST sends the neuron's last output for every step.
  virtual double held(const NeuronGroup& g, size_t i) const = 0;
  static RateBuffers& buffers(NeuronGroup& g) { return static_cast<RateBuffers&>(*g.state); }
};

}  // namespace ranvier
