// Generalized integrate-and-fire neuron with exponential post-synaptic currents (NEST's
// gif_psc_exp; Mensi et al. 2012, Pozzorini et al. 2015), as NEST 3.10 updates it. Spikes are
// stochastic: with escape rate lambda = lambda_0 exp((V_m - E_sfa) / Delta_V) the neuron fires
// in a step with probability 1 - exp(-lambda h). Each spike adds q_stc[k] to the spike-triggered
// current I_stc and q_sfa[k] to the threshold E_sfa = V_T_star + sum, each element decaying
// with its tau_stc[k] or tau_sfa[k]; V_m is held at V_reset for t_ref after it. The membrane
// and synaptic currents are integrated exactly. The uniform number of step s comes from the
// neuron's own stream at index s, so spikes are the same for any threads or processes.
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/neuron_model.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_sfa,
  I_stc,
  I_syn_ex,
  I_syn_in,
  I_stim,
  C_m,
  g_L,
  E_L,
  V_reset,
  Delta_V,
  V_T_star,
  lambda_0,
  t_ref,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  tau_minus
};
enum List { tau_sfa, q_sfa, tau_stc, q_stc };
// Hidden per-neuron lists: the adaptation elements and their decay over one step.
enum State { sfa_elems, stc_elems, sfa_decay, stc_decay, n_state };
enum Internal { P11_ex, P11_in, P21_ex, P21_in, P30, P31, P33, n_internal };

class GifPscExp final : public NeuronModel {
 public:
  const char* name() const override { return "gif_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "E_sfa", "I_stc", "I_syn_ex", "I_syn_in"};
  }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", -70.0, "mV"},     {"E_sfa", 0.0, "mV"},     {"I_stc", 0.0, "pA"},      {"I_syn_ex", 0.0, "pA"},
        {"I_syn_in", 0.0, "pA"},  {"I_stim", 0.0, "pA"},    {"C_m", 80.0, "pF"},       {"g_L", 4.0, "nS"},
        {"E_L", -70.0, "mV"},     {"V_reset", -55.0, "mV"}, {"Delta_V", 0.5, "mV"},    {"V_T_star", -35.0, "mV"},
        {"lambda_0", 1.0, "1/s"}, {"t_ref", 4.0, "ms"},     {"tau_syn_ex", 2.0, "ms"}, {"tau_syn_in", 2.0, "ms"},
        {"I_e", 0.0, "pA"},       {"tau_minus", 20.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {
        {"tau_sfa", {}, "ms"}, {"q_sfa", {}, "mV"}, {"tau_stc", {}, "ms"}, {"q_stc", {}, "nA"}};
    return lists;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](Var k) { return g.vars[k][i]; };
    for (const Var k : {g_L, Delta_V, C_m, tau_syn_ex, tau_syn_in, tau_minus})
      if (!(v(k) > 0)) throw bad_value(variables()[k].name, v(k), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(lambda_0) >= 0)) throw bad_value("lambda_0", v(lambda_0), ">= 0");
    for (const auto& [tau, q] : {std::pair{tau_sfa, q_sfa}, std::pair{tau_stc, q_stc}}) {
      const std::vector<double>& taus = g.list(tau, i);
      if (g.list(q, i).size() != taus.size())
        throw bad_value(list_variables()[q].name, listed(g.list(q, i)),
                        "as long as " + list_variables()[tau].name + " (" + std::to_string(taus.size()) + ")");
      for (double t : taus)
        if (!(t > 0)) throw bad_value(list_variables()[tau].name, listed(taus), "> 0 throughout");
    }
  }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    g.list_state.resize(n_state, std::vector<std::vector<double>>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[C_m][i] / g.vars[g_L][i], cm = g.vars[C_m][i];
      g.internals[P11_ex][i] = std::exp(-h / g.vars[tau_syn_ex][i]);
      g.internals[P11_in][i] = std::exp(-h / g.vars[tau_syn_in][i]);
      g.internals[P21_ex][i] = propagator_exp_current(g.vars[tau_syn_ex][i], tm, cm, h);
      g.internals[P21_in][i] = propagator_exp_current(g.vars[tau_syn_in][i], tm, cm, h);
      g.internals[P30][i] = -1.0 / cm * std::expm1(-h / tm) * tm;
      g.internals[P31][i] = -std::expm1(-h / tm);
      g.internals[P33][i] = std::exp(-h / tm);
      // elements keep their values when the lists grow or shrink, as in NEST
      for (const auto& [tau, elems, decay] :
           {std::tuple{tau_sfa, sfa_elems, sfa_decay}, {tau_stc, stc_elems, stc_decay}}) {
        const std::vector<double>& taus = g.list(tau, i);
        g.list_state[elems][i].resize(taus.size(), 0.0);
        g.list_state[decay][i].resize(taus.size());
        for (size_t k = 0; k < taus.size(); ++k) g.list_state[decay][i][k] = std::exp(-h / taus[k]);
      }
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    double *v = g.var(V_m), *sfa = g.var(E_sfa), *stc = g.var(I_stc), *iex = g.var(I_syn_ex), *iin = g.var(I_syn_in),
           *stim = g.var(I_stim);
    const double *ie = g.var(I_e), *e_l = g.var(E_L), *v_reset = g.var(V_reset), *dv = g.var(Delta_V),
                 *vt = g.var(V_T_star), *l0 = g.var(lambda_0), *tref = g.var(t_ref);
    const double *p11e = g.internal(P11_ex), *p11i = g.internal(P11_in), *p21e = g.internal(P21_ex),
                 *p21i = g.internal(P21_in), *p30 = g.internal(P30), *p31 = g.internal(P31), *p33 = g.internal(P33);
    int32_t* r = g.counters.data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      const uint64_t step = uint64_t(ctx.origin + lag);
      for (size_t i = 0; i < g.size(); ++i) {
        stc[i] = decayed_sum(g.list_state[stc_elems][i], g.list_state[stc_decay][i], 0.0);
        sfa[i] = decayed_sum(g.list_state[sfa_elems][i], g.list_state[sfa_decay][i], vt[i]);
        iex[i] = iex[i] * p11e[i] + ex[i];
        iin[i] = iin[i] * p11i[i] + inh[i];
        ex[i] = inh[i] = 0.0;
        if (r[i] == 0) {
          v[i] = p30[i] * (stim[i] + ie[i] - stc[i]) + p33[i] * v[i] + p31[i] * e_l[i] + iex[i] * p21e[i] +
                 iin[i] * p21i[i];
          const double lambda = l0[i] * 1e-3 * std::exp((v[i] - sfa[i]) / dv[i]);  // 1/s to 1/ms
          // a uniform number is a multiple of 2^-53: a smaller probability would need it to be 0
          // (one draw in 2^53), which is not drawn for
          const double p_fire = -std::expm1(-lambda * ctx.h);
          if (p_fire >= 0x1.0p-53 && Stream(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0).uniform(step) < p_fire) {
            add(g.list_state[stc_elems][i], g.list(q_stc, i));
            add(g.list_state[sfa_elems][i], g.list(q_sfa, i));
            r[i] = ctx.steps(tref[i]);
            ctx.spike(g, i, lag);
          }
        } else {
          --r[i];
          v[i] = v_reset[i];
        }
        stim[i] = current[i];
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  // base + the sum of the elements, which then decay by one step
  static double decayed_sum(std::vector<double>& elems, const std::vector<double>& decay, double base) {
    for (size_t k = 0; k < elems.size(); ++k) base += elems[k], elems[k] *= decay[k];
    return base;
  }
  static void add(std::vector<double>& elems, const std::vector<double>& q) {
    for (size_t k = 0; k < elems.size(); ++k) elems[k] += q[k];
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GifPscExp);

}  // namespace ranvier
