// Parameters shared by the current-based integrate-and-fire models, with NEST's names,
// defaults and checks. Values are absolute (mV); updates work relative to E_L.
#pragma once
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "models/neuron_model.hpp"

namespace ranvier::iaf {

enum Var {
  V_m, E_L, C_m, tau_m, t_ref, V_th, V_reset, tau_syn_ex, tau_syn_in, I_e, tau_minus,
  I_syn_ex, I_syn_in, I_stim, n_common
};

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.0},      {"E_L", -70.0},       {"C_m", 250.0},       {"tau_m", 10.0},
          {"t_ref", 2.0},      {"V_th", -55.0},      {"V_reset", -70.0},   {"tau_syn_ex", 2.0},
          {"tau_syn_in", 2.0}, {"I_e", 0.0},         {"tau_minus", 20.0},  {"I_syn_ex", 0.0},
          {"I_syn_in", 0.0},   {"I_stim", 0.0}};
}

[[noreturn]] inline void reject(const char* name, double value, const char* rule) {
  std::ostringstream msg;
  msg << name << " must be " << rule << ", got " << name << " = " << value;
  throw std::invalid_argument(msg.str());
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(C_m) > 0)) reject("C_m", v(C_m), "> 0");
  if (!(v(tau_m) > 0)) reject("tau_m", v(tau_m), "> 0");
  if (!(v(tau_syn_ex) > 0)) reject("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) reject("tau_syn_in", v(tau_syn_in), "> 0");
  if (!(v(tau_minus) > 0)) reject("tau_minus", v(tau_minus), "> 0");
  if (!(v(t_ref) >= 0)) reject("t_ref", v(t_ref), ">= 0");
  if (!(v(V_reset) < v(V_th))) reject("V_reset", v(V_reset), "below V_th");
}

// The end of a step both models share: threshold (a spike at the end of the step, then
// reset and refractoriness), the external current that acts from the next step on, and the
// membrane potential back to absolute terms. y is V_m - E_L after this step's propagation.
inline void finish_step(NeuronGroup& g, UpdateContext& ctx, const InputRow& in, size_t i, int lag, double y) {
  double* v = g.vars[V_m].data() + i;
  const double e_l = g.vars[E_L][i];
  const uint32_t lid = g.first_lid + uint32_t(i);
  if (y >= g.vars[V_th][i] - e_l) {
    g.counters[i] = int32_t(std::lround(g.vars[t_ref][i] / ctx.h));
    y = g.vars[V_reset][i] - e_l;
    ctx.spike(g, i, lag);
  }
  g.vars[I_stim][i] = in.current[lid];
  in.current[lid] = 0.0;
  *v = y + e_l;
}

}  // namespace ranvier::iaf
