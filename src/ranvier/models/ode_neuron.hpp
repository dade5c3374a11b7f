// The update loop shared by the neuron models integrated with the adaptive solver
// (core/rkf45.hpp): per step and neuron, the state vector is loaded from the group's arrays,
// the model advances it (System, an inlined right-hand side, and Model::advance, which
// integrates and applies the model's input, threshold and reset rules), and it is stored
// back. No virtual call per neuron; the group stays a structure of arrays.
#pragma once
#include <array>
#include <cmath>

#include "core/rkf45.hpp"
#include "models/iaf_common.hpp"

namespace ranvier::ode_neuron {

// This step's synaptic input to one neuron, summed by sign as it arrived (inhibitory < 0).
struct Input {
  double excitatory, inhibitory;
};

inline int32_t refractory_steps(double t_ref, double h) { return int32_t(std::lround(t_ref / h)); }

// Gives every neuron that has not integrated yet its first trial step size (NEST starts at
// the resolution, the aeif models at min(0.01 ms, resolution)).
inline void start_steps(NeuronGroup& g, int step_var, double first_step) {
  g.counters.resize(g.size(), 0);
  double* step = g.var(step_var);
  for (size_t i = 0; i < g.size(); ++i)
    if (!(step[i] > 0)) step[i] = first_step;
}

// Model provides: `static constexpr std::array<int, n> state` (variable indices of the
// state vector, V_m first), enum values I_stim and integration_step, and
// `static void advance(NeuronGroup&, size_t i, double* y, double i_stim, Input, double& step,
//  UpdateContext&, int lag)`.
template <class Model>
void update(NeuronGroup& g, UpdateContext& ctx) {
  constexpr size_t n = Model::state.size();
  double* i_stim = g.var(Model::I_stim);
  double* step = g.var(Model::integration_step);
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    const InputRow in = ctx.row(lag);
    for (size_t i = 0; i < g.size(); ++i) {
      const uint32_t lid = g.first_lid + uint32_t(i);
      double y[n];
      for (size_t k = 0; k < n; ++k) y[k] = g.vars[size_t(Model::state[k])][i];
      const Input input{in.excitatory[lid], in.inhibitory[lid]};
      in.excitatory[lid] = in.inhibitory[lid] = 0.0;
      Model::advance(g, i, y, i_stim[i], input, step[i], ctx, lag);
      for (size_t k = 0; k < n; ++k) g.vars[size_t(Model::state[k])][i] = y[k];
      // The current that arrived in this step drives the next one.
      i_stim[i] = in.current[lid];
      in.current[lid] = 0.0;
    }
    ctx.after_step(g, lag);
  }
}

}  // namespace ranvier::ode_neuron
