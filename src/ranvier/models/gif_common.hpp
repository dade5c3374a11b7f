// What NEST's generalized integrate-and-fire models (gif_psc_exp, gif_cond_exp; Mensi et al.
// 2012, Pozzorini et al. 2015) share: the spike-triggered current I_stc and the moving
// threshold E_sfa, each a sum of elements that jump by q_stc[k] or q_sfa[k] at a spike and decay
// with tau_stc[k] or tau_sfa[k], and the escape-rate spike: with lambda = lambda_0
// exp((V_m - E_sfa) / Delta_V) the neuron fires in a step with probability 1 - exp(-lambda h),
// the step's uniform number drawn from the neuron's own stream at the step's index, so that
// spikes are the same for any threads or processes.
#pragma once
#include <cmath>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::gif {

enum List { tau_sfa, q_sfa, tau_stc, q_stc };
// Hidden per-neuron lists: the adaptation elements and their decay over one step.
enum State { sfa_elems, stc_elems, sfa_decay, stc_decay, n_state };

inline const std::vector<ListVariable>& list_variables() {
  static const std::vector<ListVariable> lists = {
      {"tau_sfa", {}, "ms"}, {"q_sfa", {}, "mV"}, {"tau_stc", {}, "ms"}, {"q_stc", {}, "nA"}};
  return lists;
}

// Each q list as long as its tau list, every tau positive.
inline void validate_lists(const NeuronGroup& g, size_t i) {
  const auto& lists = list_variables();
  for (const auto& [tau, q] : {std::pair{tau_sfa, q_sfa}, std::pair{tau_stc, q_stc}}) {
    const std::vector<double>& taus = g.list(tau, i);
    if (g.list(q, i).size() != taus.size())
      throw bad_value(lists[q].name, listed(g.list(q, i)),
                      "as long as " + lists[tau].name + " (" + std::to_string(taus.size()) + ")");
    for (double t : taus)
      if (!(t > 0)) throw bad_value(lists[tau].name, listed(taus), "> 0 throughout");
  }
}

// The checks every gif model makes of neuron i: its parameters that must be > 0 (by index),
// t_ref >= 0, lambda_0 >= 0 and the adaptation lists.
inline void validate(const NeuronGroup& g, size_t i, std::initializer_list<int> positive, int t_ref, int lambda_0) {
  const std::vector<Variable>& vars = g.model->variables();
  for (const int k : positive)
    if (!(g.vars[size_t(k)][i] > 0)) throw bad_value(vars[size_t(k)].name, g.vars[size_t(k)][i], "> 0");
  if (!(g.vars[size_t(t_ref)][i] >= 0)) throw bad_value("t_ref", g.vars[size_t(t_ref)][i], ">= 0");
  if (!(g.vars[size_t(lambda_0)][i] >= 0)) throw bad_value("lambda_0", g.vars[size_t(lambda_0)][i], ">= 0");
  validate_lists(g, i);
}

// The elements' decays over a step of h ms; elements keep their values when the lists grow or
// shrink, as in NEST.
inline void calibrate_lists(NeuronGroup& g, double h) {
  g.list_state.resize(n_state, std::vector<std::vector<double>>(g.size()));
  for (size_t i = 0; i < g.size(); ++i)
    for (const auto& [tau, elems, decay] :
         {std::tuple{tau_sfa, sfa_elems, sfa_decay}, {tau_stc, stc_elems, stc_decay}}) {
      const std::vector<double>& taus = g.list(tau, i);
      g.list_state[elems][i].resize(taus.size(), 0.0);
      g.list_state[decay][i].resize(taus.size());
      for (size_t k = 0; k < taus.size(); ++k) g.list_state[decay][i][k] = std::exp(-h / taus[k]);
    }
}

// base + the sum of neuron i's elements (I_stc: base 0, E_sfa: base V_T_star).
inline double sum(const NeuronGroup& g, size_t i, State elems, double base) {
  for (double e : g.list_state[elems][i]) base += e;
  return base;
}
// The elements decay by one step.
inline void decay(NeuronGroup& g, size_t i) {
  for (const auto& [elems, decay] : {std::pair{sfa_elems, sfa_decay}, std::pair{stc_elems, stc_decay}})
    for (size_t k = 0; k < g.list_state[elems][i].size(); ++k) g.list_state[elems][i][k] *= g.list_state[decay][i][k];
}

// Whether neuron i fires in the step ending at `step` + 1 (escape rate lambda_0 in 1/s at
// V_m - E_sfa over Delta_V); if so its elements jump by their q.
inline bool fires(NeuronGroup& g, size_t i, double v, double e_sfa, double lambda_0, double delta_v,
                  const UpdateContext& ctx, uint64_t step) {
  const double lambda = lambda_0 * 1e-3 * std::exp((v - e_sfa) / delta_v);  // 1/s to 1/ms
  // a uniform number is a multiple of 2^-53: a smaller probability would need it to be 0 (one
  // draw in 2^53), which is not drawn for
  const double p_fire = -std::expm1(-lambda * ctx.h);
  if (!(p_fire >= 0x1.0p-53 && Stream(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0).uniform(step) < p_fire))
    return false;
  for (const auto& [elems, q] : {std::pair{stc_elems, q_stc}, std::pair{sfa_elems, q_sfa}})
    for (size_t k = 0; k < g.list_state[elems][i].size(); ++k) g.list_state[elems][i][k] += g.list(q, i)[k];
  return true;
}

}  // namespace ranvier::gif
