// Parameters and checks shared by the conductance-based integrate-and-fire models
// (iaf_cond_exp, iaf_cond_alpha), with NEST's names, defaults and units (mV, pF, nS, ms, pA).
#pragma once
#include <vector>

#include "models/iaf_common.hpp"

namespace ranvier::iaf_cond {

enum Var {
  V_m, E_L, C_m, g_L, t_ref, V_th, V_reset, E_ex, E_in, tau_syn_ex, tau_syn_in, I_e, tau_minus,
  g_ex, g_in, I_stim, integration_step, n_common
};

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.0},     {"E_L", -70.0},      {"C_m", 250.0},      {"g_L", 16.6667},
          {"t_ref", 2.0},     {"V_th", -55.0},     {"V_reset", -60.0},  {"E_ex", 0.0},
          {"E_in", -85.0},    {"tau_syn_ex", 0.2}, {"tau_syn_in", 2.0}, {"I_e", 0.0},
          {"tau_minus", 20.0}, {"g_ex", 0.0},      {"g_in", 0.0},       {"I_stim", 0.0},
          {"integration_step", 0.0}};
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(V_reset) < v(V_th))) iaf::reject("V_reset", v(V_reset), "below V_th");
  if (!(v(C_m) > 0)) iaf::reject("C_m", v(C_m), "> 0");
  if (!(v(t_ref) >= 0)) iaf::reject("t_ref", v(t_ref), ">= 0");
  if (!(v(tau_syn_ex) > 0)) iaf::reject("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) iaf::reject("tau_syn_in", v(tau_syn_in), "> 0");
  if (!(v(tau_minus) > 0)) iaf::reject("tau_minus", v(tau_minus), "> 0");
}

// The membrane of both models: clamped to V_reset while refractory (no change), otherwise
// bounded by V_th inside the right-hand side, as NEST does.
struct Membrane {
  double E_L, C_m, g_L, V_th, V_reset, E_ex, E_in, I;  // I = I_e + this step's I_stim
  bool refractory;
  double dV(double v, double g_ex, double g_in) const {
    if (refractory) return 0.0;
    const double V = v < V_th ? v : V_th;
    return (-g_L * (V - E_L) + I - g_ex * (V - E_ex) - g_in * (V - E_in)) / C_m;
  }
};

inline Membrane membrane(const NeuronGroup& g, size_t i, double i_stim) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  return {v(E_L), v(C_m), v(g_L), v(V_th), v(V_reset), v(E_ex), v(E_in), i_stim + v(I_e), g.counters[i] > 0};
}

// NEST's threshold rule, after the step's integration: a refractory neuron counts down
// clamped at V_reset; otherwise V_m >= V_th fires and resets.
inline void threshold(NeuronGroup& g, size_t i, double& V, UpdateContext& ctx, int lag) {
  int32_t& r = g.counters[i];
  if (r > 0) {
    --r;
    V = g.vars[V_reset][i];
  } else if (V >= g.vars[V_th][i]) {
    r = int32_t(std::lround(g.vars[t_ref][i] / ctx.h));
    V = g.vars[V_reset][i];
    ctx.spike(g, i, lag);
  }
}

}  // namespace ranvier::iaf_cond
