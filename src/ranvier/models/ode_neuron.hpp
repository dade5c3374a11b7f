// The update loop shared by the neuron models integrated with the adaptive solver
// (core/rkf45.hpp): per step, the neurons of the group go through the solver in batches of
// ode::lanes; a batch's state is loaded from the group's arrays into a lane block, the model
// advances it (its System, a right-hand side over all lanes, and Model::advance, which
// integrates and applies the model's input, threshold and reset rules to each lane), and it
// is stored back. No virtual call per neuron; the group stays a structure of arrays.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>

#include "core/rkf45.hpp"
#include "models/coupled_model.hpp"
#include "models/iaf_common.hpp"

namespace ranvier::ode_neuron {

constexpr int W = ode::lanes;

// This step's synaptic input to one neuron, summed by sign as it arrived (inhibitory < 0).
struct Input {
  double excitatory, inhibitory;
};

// One neuron in one lane of the solver's block, as a model's finish and after_step see it.
struct Lane {
  NeuronGroup& g;
  size_t i;   // the neuron in its group
  int l;      // its lane: state variable k at y[k * W + l]
  double* y;  // the block's state
  UpdateContext& ctx;
  int lag;  // the step within the slice
};

// Gives every neuron that has not integrated yet its first trial step size (NEST 3.10 starts
// every model at the resolution).
inline void start_steps(NeuronGroup& g, int step_var, double first_step) {
  g.counters.resize(g.size(), 0);
  double* step = g.var(step_var);
  for (size_t i = 0; i < g.size(); ++i)
    if (!(step[i] > 0)) step[i] = first_step;
}

// What a model may leave as it is: NEST's usual tolerance (1e-3 absolute on every state
// variable), nothing to do after each solver step.
struct DefaultRules {
  static ode::Tolerance tolerance() { return ode::on_values(1e-3, 0.0); }
  static void set_tolerance(const NeuronGroup&, size_t, int, ode::Tolerance&) {}
  template <class System>
  static void after_step(const Lane&, System&) {}
};

// A neuron's state from the group into lane l of the block, and back: the variables
// Model::state names (V_m first), or the model's own load_state and store_state where its state
// is more than named variables (the multisynapse models' per-receptor conductances).
template <class Model>
void load_state(const NeuronGroup& g, size_t i, int l, double* y) {
  if constexpr (requires { Model::load_state(g, i, l, y); }) {
    Model::load_state(g, i, l, y);
  } else {
    static_assert(Model::System::n == int(Model::state.size()));
    for (int k = 0; k < Model::System::n; ++k) y[k * W + l] = g.vars[size_t(Model::state[size_t(k)])][i];
  }
}
template <class Model>
void store_state(NeuronGroup& g, size_t i, int l, const double* y) {
  if constexpr (requires { Model::store_state(g, i, l, y); }) {
    Model::store_state(g, i, l, y);
  } else {
    for (int k = 0; k < Model::System::n; ++k) g.vars[size_t(Model::state[size_t(k)])][i] = y[k * W + l];
  }
}

// Model provides: its state (above), enum values I_stim and integration_step, a System with
// `load(const NeuronGroup&, size_t i, int lane, double i_stim)`, the rules of DefaultRules
// where it differs, and `static void finish(const Lane&, const System&, Input, double v_before)`,
// which applies the step's input, threshold and reset to the lane's neuron once it has been
// integrated over the step.
template <class Model>
void update(NeuronGroup& g, UpdateContext& ctx) {
  constexpr int n = Model::System::n;
  double* i_stim = g.var(Model::I_stim);
  double* step_of = g.var(Model::integration_step);
  typename Model::System sys;
  alignas(64) ode::Block<n> y;
  double step[W], v_before[W];
  ode::Tolerance tol = Model::tolerance();
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    const InputRow in = ctx.row(lag);
    if constexpr (requires { sys.at_step(lag, ctx.h); }) sys.at_step(lag, ctx.h);  // input that differs by step
    auto load = [&](int l, size_t i) {
      sys.load(g, i, l, i_stim[i]);
      Model::set_tolerance(g, i, l, tol);
      load_state<Model>(g, i, l, y);
      step[l] = step_of[i];
      v_before[l] = y[l];
    };
    auto finish = [&](int l, size_t i) {
      const uint32_t column = g.first_input + uint32_t(i);
      const Input input{in.excitatory[column], in.inhibitory[column]};
      in.excitatory[column] = in.inhibitory[column] = 0.0;
      Model::finish(Lane{g, i, l, y, ctx, lag}, sys, input, v_before[l]);
      store_state<Model>(g, i, l, y);
      step_of[i] = step[l];
      // The current that arrived in this step drives the next one.
      i_stim[i] = in.current[column];
      in.current[column] = 0.0;
    };
    auto after_step = [&](int l, size_t i) { Model::after_step(Lane{g, i, l, y, ctx, lag}, sys); };
    try {
      ode::integrate(sys, y, ctx.h, step, tol, g.size(), load, finish, after_step);
    } catch (const ode::Stalled& stalled) {  // which neuron, and when
      throw NumericalInstabilityError("numerical instability while updating " + std::string(g.model->name()) + " " +
                                      std::to_string(g.gids[stalled.item]) + " in the step ending at t = " +
                                      std::to_string(double(ctx.origin + lag + 1) * ctx.h) + " ms: " + stalled.what());
    }
    ctx.after_step(g, lag);
  }
}

// A waveform-relaxation pass over the cycle of a model with gap junctions (NEST's
// wfr_update; models/coupled_model.hpp): the steps integrated as update does, each step's spike
// input applied but left for the final pass, nothing fired, recorded or taken from the step's
// currents. Per step each neuron sends the interpolation of its potential over the step, as
// NEST does for the kernel's wfr_interpolation_order (0: the start value; 1: linear; 3: cubic
// Hermite from the values and derivatives at both ends, scaled to the step), and the pass
// compares its potential at the step's end with the last pass's. The state is restored
// afterwards but for the integration step sizes, which NEST leaves where the pass ended.
// Model provides, beside update's: a System with derivatives_at, voltage_slope(y, lane, t) (dV/dt
// alone) and at_step(lag, h), and its
// `static void relaxed(const Lane&, const System&, Input)`, which applies the step's input.
template <class Model>
bool relax(NeuronGroup& g, UpdateContext& ctx, double tol) {
  constexpr int n = Model::System::n;
  const std::vector<std::vector<double>> kept = g.vars;
  CouplingBuffers& b = CoupledModel::buffers(g);
  const size_t order = b.per_step - 1;
  double* i_stim = g.var(Model::I_stim);
  double* step_of = g.var(Model::integration_step);
  typename Model::System sys;
  alignas(64) ode::Block<n> y;
  double step[W], v_start[W], slope_start[W];
  ode::Tolerance tolerance = Model::tolerance();
  bool settled = true;
  // h dV/dt of lane l at time t of the step
  auto slope = [&](int l, double t) { return ctx.h * sys.voltage_slope(y, l, t); };
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    const InputRow in = ctx.row(lag);
    sys.at_step(lag, ctx.h);
    auto load = [&](int l, size_t i) {
      sys.load(g, i, l, i_stim[i]);
      Model::set_tolerance(g, i, l, tolerance);
      load_state<Model>(g, i, l, y);
      step[l] = step_of[i];
      v_start[l] = y[l];
      if (order == 3) slope_start[l] = slope(l, 0.0);
    };
    auto finish = [&](int l, size_t i) {
      const uint32_t column = g.first_input + uint32_t(i);
      Model::relaxed(Lane{g, i, l, y, ctx, lag}, sys, Input{in.excitatory[column], in.inhibitory[column]});
      double& last = b.last.at(size_t(lag), i);
      settled = settled && !(std::fabs(y[l] - last) > tol);
      last = y[l];
      const double y0 = v_start[l], y1 = y[l];
      double* sent = &b.sent.at(size_t(lag) * b.per_step, i);
      sent[0] = y0;
      if (order == 1) sent[1] = y1 - y0;
      if (order == 3) {
        const double s0 = slope_start[l], s1 = slope(l, ctx.h);
        sent[1] = s0;
        sent[2] = -3 * y0 + 3 * y1 - 2 * s0 - s1;
        sent[3] = 2 * y0 - 2 * y1 + s0 + s1;
      }
      store_state<Model>(g, i, l, y);
      step_of[i] = step[l];
    };
    try {
      ode::integrate(sys, y, ctx.h, step, tolerance, g.size(), load, finish, [](int, size_t) {});
    } catch (const ode::Stalled& stalled) {
      throw NumericalInstabilityError("numerical instability while relaxing " + std::string(g.model->name()) + " " +
                                      std::to_string(g.gids[stalled.item]) + ": " + stalled.what());
    }
  }
  std::vector<double> steps = g.vars[size_t(Model::integration_step)];
  g.vars = kept;
  g.vars[size_t(Model::integration_step)] = std::move(steps);
  return settled;
}

// update for a group of n receptors with the solver padded up to the next of a few sizes
// (receptor_ports::ConductancePorts::max_receptors at most).
template <template <int> class Solver>
void update_padded(NeuronGroup& g, UpdateContext& ctx, size_t n) {
  if (n <= 1) return update<Solver<1>>(g, ctx);
  if (n <= 2) return update<Solver<2>>(g, ctx);
  if (n <= 3) return update<Solver<3>>(g, ctx);
  if (n <= 4) return update<Solver<4>>(g, ctx);
  if (n <= 8) return update<Solver<8>>(g, ctx);
  return update<Solver<16>>(g, ctx);
}

}  // namespace ranvier::ode_neuron
