// Parameters and checks shared by the conductance-based integrate-and-fire models
// (iaf_cond_exp, iaf_cond_alpha), with NEST's names, defaults and units (mV, pF, nS, ms, pA).
#pragma once
#include <vector>

#include "core/rkf45.hpp"
#include "models/iaf_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier::iaf_cond {

enum Var {
  V_m,
  E_L,
  C_m,
  g_L,
  t_ref,
  V_th,
  V_reset,
  E_ex,
  E_in,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  tau_minus,
  tau_minus_triplet,
  g_ex,
  g_in,
  I_stim,
  integration_step,
  n_common
};

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.0, "mV"},      {"E_L", -70.0, "mV"},
          {"C_m", 250.0, "pF"},      {"g_L", 16.6667, "nS"},
          {"t_ref", 2.0, "ms"},      {"V_th", -55.0, "mV"},
          {"V_reset", -60.0, "mV"},  {"E_ex", 0.0, "mV"},
          {"E_in", -85.0, "mV"},     {"tau_syn_ex", 0.2, "ms"},
          {"tau_syn_in", 2.0, "ms"}, {"I_e", 0.0, "pA"},
          {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"},
          {"g_ex", 0.0, "nS"},       {"g_in", 0.0, "nS"},
          {"I_stim", 0.0, "pA"},     {"integration_step", 0.0, "ms"}};
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
  if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
  if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
  if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
  if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
}

// The membrane of both models, for the lanes of a batch: clamped to V_reset while
// refractory (no change), otherwise bounded by V_th inside the right-hand side, as NEST does.
struct Membrane {
  static constexpr int W = ode::lanes;
  double E_L[W], C_m[W], g_L[W], V_th[W], V_reset[W], E_ex[W], E_in[W], I[W];  // I = I_e + I_stim
  int32_t refractory[W];
  void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    E_L[l] = v(iaf_cond::E_L), C_m[l] = v(iaf_cond::C_m), g_L[l] = v(iaf_cond::g_L), V_th[l] = v(iaf_cond::V_th);
    V_reset[l] = v(iaf_cond::V_reset), E_ex[l] = v(iaf_cond::E_ex), E_in[l] = v(iaf_cond::E_in);
    I[l] = v(iaf_cond::I_e) + i_stim;
    refractory[l] = g.counters[i];
  }
  // The potential the currents see.
  [[gnu::always_inline]] double V(int l, double v) const {
    return refractory[l] > 0 ? V_reset[l] : (v < V_th[l] ? v : V_th[l]);
  }
  // I_other: further currents out of the cell (pA) at that potential.
  [[gnu::always_inline]] double dV(int l, double v, double g_ex, double g_in, double I_other = 0.0) const {
    const double U = V(l, v);
    const double dv = (-g_L[l] * (U - E_L[l]) + I[l] - g_ex * (U - E_ex[l]) - g_in * (U - E_in[l]) - I_other) / C_m[l];
    return refractory[l] > 0 ? 0.0 : dv;
  }
};

// NEST's threshold rule, after the step's integration: a refractory neuron counts down
// clamped at V_reset; otherwise V_m >= V_th fires and resets. Returns whether it fired.
inline bool threshold(NeuronGroup& g, size_t i, double& V, UpdateContext& ctx, int lag) {
  int32_t& r = g.counters[i];
  if (r > 0) {
    --r;
    V = g.vars[V_reset][i];
  } else if (V >= g.vars[V_th][i]) {
    r = ctx.steps(g.vars[t_ref][i]);
    V = g.vars[V_reset][i];
    ctx.spike(g, i, lag);
    return true;
  }
  return false;
}

// The end of a step of the models with exponential conductances (V_m, g_ex, g_in first in
// their state): the step's input joins the conductances before the threshold check (NEST's
// order). Returns whether the neuron fired.
inline bool take_input_and_fire(const ode_neuron::Lane& at, ode_neuron::Input input) {
  constexpr int W = ode::lanes;
  auto& [g, i, l, y, ctx, lag] = at;
  y[W + l] += input.excitatory;
  y[2 * W + l] -= input.inhibitory;
  return threshold(g, i, y[l], ctx, lag);
}

}  // namespace ranvier::iaf_cond
