// What NEST's current-based adaptive exponential integrate-and-fire models (aeif_psc_exp and
// aeif_psc_alpha) share: the aeif membrane and spike rule (aeif_common.hpp) with an excitatory
// and an inhibitory synaptic current instead of conductances, their variables and checks.
// An inhibitory spike's weight is negative and its current I_syn_in positive, subtracted.
#pragma once
#include <vector>

#include "models/aeif_common.hpp"

namespace ranvier::aeif_psc {

enum Var {
  V_m,
  E_L,
  C_m,
  g_L,
  t_ref,
  V_th,
  V_peak,
  V_reset,
  tau_syn_ex,
  tau_syn_in,
  a,
  b,
  Delta_T,
  tau_w,
  I_e,
  gsl_error_tol,
  tau_minus,
  tau_minus_triplet,
  I_syn_ex,
  I_syn_in,
  w,
  I_stim,
  integration_step,
  n_common
};
constexpr aeif::Layout layout{E_L, C_m, g_L,     t_ref, V_th, V_peak,        V_reset,
                              a,   b,   Delta_T, tau_w, I_e,  gsl_error_tol, tau_minus};

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.6, "mV"},
          {"E_L", -70.6, "mV"},
          {"C_m", 281.0, "pF"},
          {"g_L", 30.0, "nS"},
          {"t_ref", 0.0, "ms"},
          {"V_th", -50.4, "mV"},
          {"V_peak", 0.0, "mV"},
          {"V_reset", -60.0, "mV"},
          {"tau_syn_ex", 0.2, "ms"},
          {"tau_syn_in", 2.0, "ms"},
          {"a", 4.0, "nS"},
          {"b", 80.5, "pA"},
          {"Delta_T", 2.0, "mV"},
          {"tau_w", 144.0, "ms"},
          {"I_e", 0.0, "pA"},
          {"gsl_error_tol", 1e-6, ""},
          {"tau_minus", 20.0, "ms"},
          {"tau_minus_triplet", 110.0, "ms"},
          {"I_syn_ex", 0.0, "pA"},
          {"I_syn_in", 0.0, "pA"},
          {"w", 0.0, "pA"},
          {"I_stim", 0.0, "pA"},
          {"integration_step", 0.0, "ms"}};
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  aeif::validate_membrane<layout>(g, i);
  if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
}

// The synaptic terms: I_syn_ex - I_syn_in (NEST's order).
[[gnu::always_inline]] inline auto currents(double i_ex, double i_in) {
  return [=](double, double x) { return x + i_ex - i_in; };
}

}  // namespace ranvier::aeif_psc
