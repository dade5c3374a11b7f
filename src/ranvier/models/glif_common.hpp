// What NEST's GLIF models (Teeter et al. 2018: glif_psc, glif_psc_double_alpha, glif_cond)
// share: their parameters and switches, the checks on them, and the mechanisms besides the
// membrane, as NEST 3.10 computes them. Three switches select the five GLIF models:
// spike_dependent_threshold (GLIF 2: a threshold component that jumps by th_spike_add at each
// spike and decays at th_spike_decay, and the reset V = voltage_reset_fraction V +
// voltage_reset_add), after_spike_currents (GLIF 3: currents that jump to asc_amps + asc_r
// times their value at each spike and decay at asc_decay) and adapting_threshold (GLIF 5: a
// threshold component driven by V_m at th_voltage_index, decaying at th_voltage_decay). The
// after-spike currents enter each step with their mean over it, the voltage component of the
// threshold with its exact solution for V_m linear in time. A spike needs V_m strictly above
// the threshold; V_m is then held for t_ref, during which the after-spike currents and the
// threshold keep their values. Values are absolute (mV) as NEST shows them; the models work
// relative to E_L.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::glif {

// A model's variables begin with these (its own follow from n_common on).
enum Var {
  V_m,
  V_th,
  g_m,  // the membrane's conductance: NEST's "g" in glif_psc, "g_m" in glif_cond
  E_L,
  C_m,
  t_ref,
  V_reset,
  th_spike_add,
  th_spike_decay,
  voltage_reset_fraction,
  voltage_reset_add,
  th_voltage_index,
  th_voltage_decay,
  spike_dependent_threshold,
  after_spike_currents,
  adapting_threshold,
  threshold_spike,
  threshold_voltage,
  threshold,
  ASCurrents_sum,
  I,
  n_common
};
enum List { asc_init, asc_decay, asc_amps, asc_r, ASCurrents, n_common_lists };
// Per neuron and after-spike current: its decay over a step, its mean over a step relative to
// its start, and what is left of it after t_ref (times asc_r).
enum AscState { asc_step, asc_mean, asc_refractory, n_asc_state };
// Per neuron (a model's own internals follow from n_fixed on).
enum Internal { spike_decay, spike_refractory_decay, voltage_decay, phi, index_ratio, potential_decay, n_fixed };

// NEST's defaults: GLIF 5 of the Allen Cell Types Database's cell 490626718.
inline std::vector<Variable> common_variables(const char* conductance_name) {
  return {{"V_m", -78.85, "mV"},
          {"V_th", -51.68, "mV"},
          {conductance_name, 9.43, "nS"},
          {"E_L", -78.85, "mV"},
          {"C_m", 58.72, "pF"},
          {"t_ref", 3.75, "ms"},
          {"V_reset", -78.85, "mV"},
          {"th_spike_add", 0.37, "mV"},
          {"th_spike_decay", 0.009, "1/ms"},
          {"voltage_reset_fraction", 0.2, ""},
          {"voltage_reset_add", 18.51, "mV"},
          {"th_voltage_index", 0.005, "1/ms"},
          {"th_voltage_decay", 0.09, "1/ms"},
          {"spike_dependent_threshold", 0.0, "", true},
          {"after_spike_currents", 0.0, "", true},
          {"adapting_threshold", 0.0, "", true},
          {"threshold_spike", 0.0, "mV"},
          {"threshold_voltage", 0.0, "mV"},
          {"threshold", -51.68, "mV"},
          {"ASCurrents_sum", 0.0, "pA"},
          {"I", 0.0, "pA"}};
}
// NEST 3.10 takes asc_init but starts every neuron's ASCurrents at the built-in [0, 0]
// (measured), so asc_init changes nothing here either.
inline std::vector<ListVariable> common_lists() {
  return {{"asc_init", {0.0, 0.0}, "pA"},
          {"asc_decay", {0.003, 0.1}, "1/ms"},
          {"asc_amps", {-9.18, -198.94}, "pA"},
          {"asc_r", {1.0, 1.0}, ""},
          {"ASCurrents", {0.0, 0.0}, "pA"}};
}

inline bool has(const NeuronGroup& g, Var switch_, size_t i) { return g.vars[switch_][i] != 0.0; }

// State a model's mechanisms lack cannot be set (NEST).
inline void on_set(const NeuronGroup& g, size_t i, const SetContext& set) {
  if (set.sets("ASCurrents") && !has(g, after_spike_currents, i))
    throw bad_value("ASCurrents", listed(g.list(ASCurrents, i)), "set only with after_spike_currents = True");
  if (set.sets("ASCurrents") && g.list(ASCurrents, i).size() != g.list(asc_decay, i).size())
    throw bad_value("ASCurrents", listed(g.list(ASCurrents, i)),
                    "as long as asc_decay (" + std::to_string(g.list(asc_decay, i).size()) + ")");
  if (set.sets("threshold_spike") && !has(g, spike_dependent_threshold, i))
    throw bad_value("threshold_spike", g.vars[threshold_spike][i], "set only with spike_dependent_threshold = True");
  if (set.sets("threshold_voltage") && !has(g, adapting_threshold, i))
    throw bad_value("threshold_voltage", g.vars[threshold_voltage][i], "set only with adapting_threshold = True");
}

// NEST's checks of the common parameters; `variables` names them as the model does.
inline void validate(const NeuronGroup& g, size_t i, const std::vector<Variable>& variables) {
  const auto v = [&](Var k) { return g.vars[k][i]; };
  const bool spike = has(g, spike_dependent_threshold, i), asc = has(g, after_spike_currents, i),
             voltage = has(g, adapting_threshold, i);
  // the five GLIF models are every setting of the switches but adapting_threshold without both others
  const auto shown = [](bool b) { return std::string(b ? "True" : "False"); };
  if (voltage && !(spike && asc))
    throw BadParameterError(
        "the switches must select one of the five GLIF models (adapting_threshold needs "
        "spike_dependent_threshold and after_spike_currents), got spike_dependent_threshold = " +
        shown(spike) + ", after_spike_currents = " + shown(asc) + ", adapting_threshold = True");
  if (asc) {
    const size_t n = g.list(asc_decay, i).size();
    for (const List k : {asc_init, asc_amps, asc_r})
      if (g.list(k, i).size() != n)
        throw bad_value(common_lists()[k].name, listed(g.list(k, i)),
                        "as long as asc_decay (" + std::to_string(n) + ")");
    for (double k : g.list(asc_decay, i))
      if (!(k > 0)) throw bad_value("asc_decay", listed(g.list(asc_decay, i)), "> 0 throughout");
    for (double r : g.list(asc_r, i))
      if (!(r >= 0 && r <= 1)) throw bad_value("asc_r", listed(g.list(asc_r, i)), "within [0, 1] throughout");
  }
  if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
  for (const Var k : {C_m, g_m, t_ref})
    if (!(v(k) > 0)) throw bad_value(variables[k].name, v(k), "> 0");
  if (voltage && !(v(th_voltage_decay) > 0)) throw bad_value("th_voltage_decay", v(th_voltage_decay), "> 0");
  // NEST divides by th_voltage_decay - g / C_m
  if (voltage && v(th_voltage_decay) == v(g_m) / v(C_m))
    throw bad_value("th_voltage_decay", v(th_voltage_decay), "different from " + variables[g_m].name + " / C_m");
  if (spike && !(v(th_spike_decay) > 0)) throw bad_value("th_spike_decay", v(th_spike_decay), "> 0");
  if (spike && !(v(voltage_reset_fraction) >= 0 && v(voltage_reset_fraction) <= 1))
    throw bad_value("voltage_reset_fraction", v(voltage_reset_fraction), "within [0, 1]");
}

// The internals up to n_fixed (a model has sized g.internals), the after-spike currents' decays
// and the refractory counters.
inline void calibrate(NeuronGroup& g, double h) {
  g.counters.resize(g.size(), 0);
  g.list_state.resize(n_asc_state, std::vector<std::vector<double>>(g.size()));
  for (size_t i = 0; i < g.size(); ++i) {
    const auto v = [&](Var k) { return g.vars[k][i]; };
    const auto set = [&](size_t k, double value) { g.internals[k][i] = value; };
    const double tm = v(C_m) / v(g_m);
    set(spike_decay, std::exp(-v(th_spike_decay) * h));
    set(spike_refractory_decay, std::exp(-v(th_spike_decay) * v(t_ref)));
    set(voltage_decay, std::exp(-v(th_voltage_decay) * h));
    set(phi, v(th_voltage_index) / (v(th_voltage_decay) - 1.0 / tm));
    set(index_ratio, v(th_voltage_index) / v(th_voltage_decay));
    set(potential_decay, std::exp(-h / tm));
    // the after-spike currents follow asc_decay's length, keeping their values (NEST keeps
    // ASCurrents' length and leaves out the parameters' further entries)
    const std::vector<double>& k = g.list(asc_decay, i);
    if (v(after_spike_currents) != 0) g.lists[ASCurrents][i].resize(k.size(), 0.0);
    for (auto& rates : g.list_state) rates[i].assign(k.size(), 0.0);
    for (size_t a = 0; a < k.size() && a < g.list(asc_r, i).size(); ++a) {
      g.list_state[asc_step][i][a] = std::exp(-k[a] * h);
      g.list_state[asc_mean][i][a] = -std::expm1(-k[a] * h) / (k[a] * h);
      g.list_state[asc_refractory][i][a] = g.list(asc_r, i)[a] * std::exp(-k[a] * v(t_ref));
    }
  }
}

// Neuron i's mechanisms over one step out of refractoriness, before its spike test: the spike
// component of the threshold decays, the after-spike currents give their mean over the step
// (ASCurrents_sum) and decay. Returns ASCurrents_sum.
inline double decay_mechanisms(NeuronGroup& g, size_t i) {
  if (has(g, spike_dependent_threshold, i)) g.vars[threshold_spike][i] *= g.internals[spike_decay][i];
  std::vector<double>& asc = g.lists[ASCurrents][i];
  double sum = 0.0;
  if (has(g, after_spike_currents, i))
    for (size_t a = 0; a < asc.size(); ++a) {
      sum += g.list_state[asc_mean][i][a] * asc[a];
      asc[a] *= g.list_state[asc_step][i][a];
    }
  g.vars[ASCurrents_sum][i] = sum;
  return sum;
}

// The voltage component of the threshold over the step, exact for V_m relaxing from v_old
// (relative to E_L) towards (I + ASCurrents_sum) / g.
inline void adapt_threshold(NeuronGroup& g, size_t i, double v_old, double asc_sum) {
  if (!has(g, adapting_threshold, i)) return;
  auto& v = g.vars;
  const auto p = [&](Internal k) { return g.internals[k][i]; };
  const double beta = (v[I][i] + asc_sum) / v[g_m][i], ratio = p(index_ratio);
  const double drive = p(phi) * (v_old - beta);
  v[threshold_voltage][i] =
      drive * p(potential_decay) + p(voltage_decay) * (v[threshold_voltage][i] - drive - ratio * beta) + ratio * beta;
}

// The threshold relative to E_L.
inline double theta(const NeuronGroup& g, size_t i) {
  return g.vars[threshold_spike][i] + g.vars[threshold_voltage][i] + (g.vars[V_th][i] - g.vars[E_L][i]);
}

// Neuron i fires: refractory for t_ref, after-spike currents jump, the spike component of the
// threshold resets. Returns V_m after the reset, relative to E_L (v_old: before the step).
inline double fire(NeuronGroup& g, size_t i, double v_old, int32_t refractory_steps) {
  auto& v = g.vars;
  g.counters[i] = refractory_steps;
  std::vector<double>& asc = g.lists[ASCurrents][i];
  if (has(g, after_spike_currents, i))
    for (size_t a = 0; a < asc.size(); ++a)
      asc[a] = g.list(asc_amps, i)[a] + asc[a] * g.list_state[asc_refractory][i][a];
  if (!has(g, spike_dependent_threshold, i)) return v[V_reset][i] - v[E_L][i];
  v[threshold_spike][i] = v[threshold_spike][i] * g.internals[spike_refractory_decay][i] + v[th_spike_add][i];
  return v[voltage_reset_fraction][i] * v_old + v[voltage_reset_add][i];
}

}  // namespace ranvier::glif
