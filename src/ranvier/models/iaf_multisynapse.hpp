// What NEST's iaf_psc_exp_multisynapse and iaf_psc_alpha_multisynapse share: their parameters,
// their checks and the step of the membrane; their tau_syn ports are receptor_ports.hpp's. Values are absolute (mV);
// updates work relative to E_L, as iaf_common.hpp.
#pragma once
#include <cmath>

#include "models/iaf_common.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier::multisynapse {

using namespace receptor_ports;

// V_m .. V_reset sit at the indices of iaf::Var (iaf::finish_step reads them there).
enum Var {
  V_m,
  E_L,
  C_m,
  tau_m,
  t_ref,
  V_th,
  V_reset,
  I_e,
  tau_minus,
  tau_minus_triplet,
  I_syn,
  I_stim,
  V_rel,
  n_common
};
static_assert(int(V_reset) == int(iaf::V_reset) && int(V_th) == int(iaf::V_th) && int(t_ref) == int(iaf::t_ref));

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.0, "mV"},      {"E_L", -70.0, "mV"},
          {"C_m", 250.0, "pF"},      {"tau_m", 10.0, "ms"},
          {"t_ref", 2.0, "ms"},      {"V_th", -55.0, "mV"},
          {"V_reset", -70.0, "mV"},  {"I_e", 0.0, "pA"},
          {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"},
          {"I_syn", 0.0, "pA"},      {"I_stim", 0.0, "pA"},
          iaf::relative_potential()};
}

// The common checks and STDP trace of both models; the ports are receptor_ports.hpp's.
template <bool alpha>
class Base : public receptor_ports::Ports<alpha> {
 public:
  const std::vector<ListParameter>& list_parameters() const override {
    static const std::vector<ListParameter> lists{{"tau_syn", {2.0}, "ms", "n_synapses", "I_syn"}};
    return lists;
  }
  void after_set(NeuronGroup& g, size_t i) const override { iaf::sync_rest(g, i, V_rel); }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
  }
};

// The membrane's part of one step over the group, before the ports add theirs: y is V_m - E_L
// propagated by the external currents, and NEST's I_syn (the sum of the ports' currents at
// the end of the step, which the ports add) starts at 0. ps is the stride of the internals
// (0: shared); internals 0 and 1 are P20 (or P30) and exp(-h / tau_m), NEST's propagators.
template <size_t ps>
void membrane(NeuronGroup& g, double* y) {
  const size_t n = g.size();
  const double *R = g.var(V_rel), *Ie = g.var(I_e), *Istim = g.var(I_stim);
  const double *p20 = g.internal(0), *p22 = g.internal(1);
  double* total = g.var(I_syn);
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const double rest = R[i];
    y[i] = p20[i * ps] * (Istim[i] + Ie[i]) + p22[i * ps] * rest;
    total[i] = 0.0;
  }
}

// After the ports added their parts to y: refractory cells keep V_m.
inline void hold_refractory(NeuronGroup& g, double* y) {
  const size_t n = g.size();
  const double* R = g.var(V_rel);
  int32_t* refractory = g.counters.data();
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const int32_t r = refractory[i];
    y[i] = r == 0 ? y[i] : R[i];
    refractory[i] = r - (r != 0);
  }
}

// The update both models share: each step Model::step<ps> (ps = 0 when the neurons share
// their internals), then threshold and reset.
template <class Model>
void update(NeuronGroup& g, UpdateContext& ctx) {
  g.scratch.resize(g.size());
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    const InputRow in = ctx.row(lag);
    if (g.shared_internals)
      Model::template step<0>(g, in);
    else
      Model::template step<1>(g, in);
    iaf::finish_step(g, ctx, in, lag, g.scratch.data(), I_stim, iaf::Refractoriness{}, V_rel);
    ctx.after_step(g, lag);
  }
}

}  // namespace ranvier::multisynapse
