// Parameters shared by the current-based integrate-and-fire models, with NEST's names,
// defaults and checks. Values are absolute (mV); updates work relative to E_L.
#pragma once
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::iaf {

enum Var {
  V_m,
  E_L,
  C_m,
  tau_m,
  t_ref,
  V_th,
  V_reset,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  tau_minus,
  tau_minus_triplet,
  I_syn_ex,
  I_syn_in,
  I_stim,
  V_rel,  // hidden: V_m - E_L as the step keeps it
  n_common
};

// NEST's integrate-and-fire models keep V_m - E_L from step to step and show it plus E_L; so do
// Ranvier's (these, iaf_psc_delta, mat2_psc_exp and the multisynapse models), in this hidden
// variable, so that V_m loses no bit to the sum (iaf_psc_alpha with I_e drifted 1 ulp from NEST's).
// The precise models keep their own (precise_iaf.hpp) and carry this one unused.
inline Variable relative_potential() { return {"V_rel", 0.0, "mV", false, {}, true}; }

inline std::vector<Variable> common_variables() {
  return {
      {"V_m", -70.0, "mV"},      {"E_L", -70.0, "mV"},    {"C_m", 250.0, "pF"},      {"tau_m", 10.0, "ms"},
      {"t_ref", 2.0, "ms"},      {"V_th", -55.0, "mV"},   {"V_reset", -70.0, "mV"},  {"tau_syn_ex", 2.0, "ms"},
      {"tau_syn_in", 2.0, "ms"}, {"I_e", 0.0, "pA"},      {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"},
      {"I_syn_ex", 0.0, "pA"},   {"I_syn_in", 0.0, "pA"}, {"I_stim", 0.0, "pA"},     relative_potential()};
}

// Where a user changed V_m or E_L (the models keep them at indices 0 and 1), the relative
// potential at `rest_index` follows; where V_m is still it plus E_L, another parameter was set
// and it is kept.
inline void sync_rest(NeuronGroup& g, size_t i, int rest_index = V_rel) {
  const double v = g.vars[V_m][i], e_l = g.vars[E_L][i];
  double& rest = g.vars[size_t(rest_index)][i];
  if (rest + e_l != v) rest = v - e_l;
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
  if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
  if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
  if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
  if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
  if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
}

// The arrays every model's step reads and writes (the loops are `omp simd`, which tells the
// compiler they do not overlap).
struct StepArrays {
  const double *EL, *Ie, *Istim;
  const double* rest;  // V_m - E_L at the step's start
  double *Iex, *Iin;
  int32_t* refractory;
  double *ex, *inh;  // this step's input, by neuron of the group
  double* y;         // V_m - E_L after the step's propagation
};

inline StepArrays step_arrays(NeuronGroup& g, const InputRow& in) {
  return {g.var(E_L),
          g.var(I_e),
          g.var(I_stim),
          g.var(V_rel),
          g.var(I_syn_ex),
          g.var(I_syn_in),
          g.counters.data(),
          in.excitatory + g.first_input,
          in.inhibitory + g.first_input,
          g.scratch.data()};
}

// NEST's refractoriness of the iaf models: after a spike V_m stays at V_reset for t_ref
// (g.counters counts the steps down during the propagation), and the cell may fire whenever
// it crosses the threshold. A policy with `crosses(g, i, over, ctx, stamp)` decides the crossing
// itself from over = V_m - V_th at the end of step `stamp` (a soft threshold).
struct Refractoriness {
  bool may_fire(NeuronGroup&, size_t) const { return true; }
  void fired(NeuronGroup& g, size_t i, UpdateContext& ctx) const { g.counters[i] = ctx.steps(g.vars[t_ref][i]); }
};

// NEST's soft threshold (iaf_psc_exp, iaf_tum_2000): with a width delta > 0 mV the cell fires in a
// step with probability rho exp(over / delta) h (rho in 1/s), drawn from its own stream at the
// step's index (the same for any partition); a width below 1e-10 mV is NEST's hard threshold.
inline bool soft_threshold_fires(const NeuronGroup& g, size_t i, double over, double delta, double rho,
                                 const UpdateContext& ctx, int64_t stamp) {
  if (delta < 1e-10) return over >= 0;
  const double phi = rho * std::exp(over / delta);
  return Stream(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0).uniform(uint64_t(stamp)) < phi * ctx.h * 1e-3;
}

// The end of a step the iaf models share, over the whole group: threshold (a spike at the end
// of the step, then reset and refractoriness), the external current that acts from the next
// step on (it enters a cell's first port), and the membrane potential back to absolute terms.
// y holds V_m - E_L after this step's propagation, which the models compute in a loop of their
// own that vectorizes. The models keep V_m ... V_reset at the indices of Var; I_stim may differ.
template <class Refractory = Refractoriness>
inline void finish_step(NeuronGroup& g, UpdateContext& ctx, const InputRow& in, int lag, double* y,
                        int i_stim_index = I_stim, Refractory refractory = {}, int rest_index = V_rel) {
  double* v = g.var(V_m);
  double* rest = rest_index < 0 ? nullptr : g.var(rest_index);
  const double *e_l = g.var(E_L), *v_th = g.var(V_th);
  double* current = in.current + g.first_input;
  double* i_stim = g.var(i_stim_index);
  for (size_t i = 0; i < g.size(); ++i) {
    bool fires;
    if constexpr (requires { refractory.crosses(g, i, 0.0, ctx, int64_t(0)); })
      fires =
          refractory.may_fire(g, i) && refractory.crosses(g, i, y[i] - (v_th[i] - e_l[i]), ctx, ctx.origin + lag + 1);
    else
      fires = refractory.may_fire(g, i) && y[i] >= v_th[i] - e_l[i];
    if (fires) {
      refractory.fired(g, i, ctx);
      y[i] = g.vars[V_reset][i] - e_l[i];
      ctx.spike(g, i, lag);
    }
    i_stim[i] = current[i];
    current[i] = 0.0;
    v[i] = y[i] + e_l[i];
    if (rest) rest[i] = y[i];
  }
}

// The update both models share: every step the model's propagation (Model::propagate<ps>,
// ps = 0 when the neurons share their internals), then threshold and reset.
template <class Model, class Refractory = Refractoriness>
void update_steps(NeuronGroup& g, UpdateContext& ctx, int i_stim_index = I_stim, Refractory refractory = {}) {
  g.scratch.resize(g.size());
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    const InputRow in = ctx.row(lag);
    if (g.shared_internals)
      Model::template propagate<0>(g, in);
    else
      Model::template propagate<1>(g, in);
    finish_step(g, ctx, in, lag, g.scratch.data(), i_stim_index, refractory);
    ctx.after_step(g, lag);
  }
}

}  // namespace ranvier::iaf
