// Variables and checks shared by the delta-synapse integrate-and-fire models (iaf_psc_delta,
// iaf_psc_delta_ps), with NEST's names and defaults; each model adds its own after n_common.
#pragma once
#include <vector>

#include "core/errors.hpp"
#include "models/iaf_common.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::iaf_delta {

enum Var {
  V_m,
  E_L,
  C_m,
  tau_m,
  t_ref,
  V_th,
  V_reset,
  V_min,
  I_e,
  refractory_input,
  tau_minus,
  tau_minus_triplet,
  I_stim,
  V_rel,  // hidden: V_m - E_L as the step keeps it (iaf::relative_potential)
  n_common
};

// v_min: V_min's default (NEST's iaf_psc_delta_ps shows the largest double; Ranvier's
// iaf_psc_delta keeps -inf).
inline std::vector<Variable> common_variables(double v_min) {
  return {{"V_m", -70.0, "mV"},      {"E_L", -70.0, "mV"},
          {"C_m", 250.0, "pF"},      {"tau_m", 10.0, "ms"},
          {"t_ref", 2.0, "ms"},      {"V_th", -55.0, "mV"},
          {"V_reset", -70.0, "mV"},  {"V_min", v_min, "mV"},
          {"I_e", 0.0, "pA"},        {"refractory_input", 0.0, "", true},
          {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"},
          {"I_stim", 0.0, "pA"},     iaf::relative_potential()};
}

inline void validate_common(const NeuronGroup& g, size_t i) {
  const auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
  if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
  if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
  if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
  if (v(refractory_input) != 0.0 && v(refractory_input) != 1.0)
    throw bad_value("refractory_input", v(refractory_input), "a boolean");
}

}  // namespace ranvier::iaf_delta
