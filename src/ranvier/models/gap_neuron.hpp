// What NEST's neuron models with gap junctions share (hh_psc_alpha_gap, hh_cond_beta_gap_traub):
// the gap current sum_j g_ij (V_j(t) - V) with each partner's potential interpolated over the
// step (kernel/coupling.hpp, which iterates it by waveform relaxation), and their coupling:
// they send their potential through gap junctions and take spikes as any neuron.
#pragma once
#include "models/coupled_model.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier::gap {

constexpr int W = ode::lanes;

// The gap junctions' input to the lanes of a solver System in one step: a System derives from
// it (ode_neuron calls at_step before each step) and calls load and current.
struct GapCurrent {
  int lag = 0;        // the step of the cycle, whose coefficients apply
  double step = 0.1;  // ms: the resolution, over which the interpolation runs from 0 to 1
  size_t order = 0;
  double G[W] = {}, c[4][W] = {};  // the summed conductance and coefficients of each lane's junctions
  void at_step(int step_lag, double h) { lag = step_lag, step = h; }
  void load(const NeuronGroup& g, size_t i, int l) {
    const CouplingBuffers& b = CoupledModel::buffers(g);
    order = b.per_step - 1;
    G[l] = b.conductance[i];
    for (size_t k = 0; k < 4; ++k) c[k][l] = k <= order ? b.instant_ex.at(size_t(lag) * b.per_step + k, i) : 0.0;
  }
  // The current into lane l at potential V, t ms into the step: NEST's order of operations
  // (the terms beyond the interpolation order have coefficients 0 and change nothing).
  [[gnu::always_inline]] double current(int l, double V, double t) const {
    const double s = t / step;
    return -G[l] * V + c[0][l] + c[1][l] * s + c[2][l] * s * s + c[3][l] * s * s * s;
  }
};

// A model with gap junctions integrated by ode_neuron: Model is its own ode_neuron Model, whose
// System derives from GapCurrent and has voltage_slope (ode_neuron::relax), V_m first in its state.
template <class Model>
class GapNeuron : public NeuronModel, public CoupledModel, public ode_neuron::DefaultRules {
 public:
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<CouplingBuffers>();
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<Model>(g, ctx); }
  const CoupledModel* coupled_model() const override { return this; }
  // gap junctions, and spikes as any neuron
  bool joins(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::gap_junction || kind == SecondaryEvent::none;
  }
  size_t values_per_step(int interpolation_order) const override { return size_t(interpolation_order) + 1; }
  bool relax(NeuronGroup& g, UpdateContext& ctx, double tol) const override {
    return ode_neuron::relax<Model>(g, ctx, tol);
  }
  double held(const NeuronGroup& g, size_t i) const override { return g.vars[size_t(Model::state[0])][i]; }
};

}  // namespace ranvier::gap
