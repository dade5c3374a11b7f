// Generalized integrate-and-fire neuron with exponential post-synaptic currents (NEST's
// gif_psc_exp), as NEST 3.10 updates it: the adaptation and the stochastic spikes of
// models/gif_common.hpp, V_m held at V_reset for t_ref after a spike, the membrane and
// synaptic currents integrated exactly.
#include <cmath>

#include "models/gif_common.hpp"
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
  tau_minus,
  tau_minus_triplet
};
enum Internal { P11_ex, P11_in, P21_ex, P21_in, P30, P31, P33, n_internal };

class GifPscExp final : public NeuronModel {
 public:
  const char* name() const override { return "gif_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "E_sfa", "I_stc", "I_syn_ex", "I_syn_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", -70.0, "mV"},
                                               {"E_sfa", 0.0, "mV"},
                                               {"I_stc", 0.0, "pA"},
                                               {"I_syn_ex", 0.0, "pA"},
                                               {"I_syn_in", 0.0, "pA"},
                                               {"I_stim", 0.0, "pA"},
                                               {"C_m", 80.0, "pF"},
                                               {"g_L", 4.0, "nS"},
                                               {"E_L", -70.0, "mV"},
                                               {"V_reset", -55.0, "mV"},
                                               {"Delta_V", 0.5, "mV"},
                                               {"V_T_star", -35.0, "mV"},
                                               {"lambda_0", 1.0, "1/s"},
                                               {"t_ref", 4.0, "ms"},
                                               {"tau_syn_ex", 2.0, "ms"},
                                               {"tau_syn_in", 2.0, "ms"},
                                               {"I_e", 0.0, "pA"},
                                               {"tau_minus", 20.0, "ms"},
                                               {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override { return gif::list_variables(); }
  void validate(NeuronGroup& g, size_t i) const override {
    gif::validate(g, i, {g_L, Delta_V, C_m, tau_syn_ex, tau_syn_in, tau_minus}, t_ref, lambda_0);
  }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    gif::calibrate_lists(g, h);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[C_m][i] / g.vars[g_L][i], cm = g.vars[C_m][i];
      g.internals[P11_ex][i] = std::exp(-h / g.vars[tau_syn_ex][i]);
      g.internals[P11_in][i] = std::exp(-h / g.vars[tau_syn_in][i]);
      g.internals[P21_ex][i] = propagator_exp_current(g.vars[tau_syn_ex][i], tm, cm, h);
      g.internals[P21_in][i] = propagator_exp_current(g.vars[tau_syn_in][i], tm, cm, h);
      g.internals[P30][i] = -1.0 / cm * std::expm1(-h / tm) * tm;
      g.internals[P31][i] = -std::expm1(-h / tm);
      g.internals[P33][i] = std::exp(-h / tm);
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
        stc[i] = gif::sum(g, i, gif::stc_elems, 0.0);
        sfa[i] = gif::sum(g, i, gif::sfa_elems, vt[i]);
        gif::decay(g, i);
        iex[i] = iex[i] * p11e[i] + ex[i];
        iin[i] = iin[i] * p11i[i] + inh[i];
        ex[i] = inh[i] = 0.0;
        if (r[i] == 0) {
          v[i] = p30[i] * (stim[i] + ie[i] - stc[i]) + p33[i] * v[i] + p31[i] * e_l[i] + iex[i] * p21e[i] +
                 iin[i] * p21i[i];
          if (gif::fires(g, i, v[i], sfa[i], l0[i], dv[i], ctx, step)) {
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
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GifPscExp);

}  // namespace ranvier
