// NEST's gif_psc_exp_multisynapse: gif_psc_exp's neuron (the adaptation and stochastic spikes of
// gif_common.hpp) with any number of exponential current receptors, one per entry of its
// tau_syn list (receptor_type k from 1, currents at 0; receptor_ports.hpp), the membrane and
// the currents integrated exactly. NEST's order differs from gif_psc_exp's: the membrane takes
// the receptors' currents as they stood at the step's start, and a step's spikes join them after.
#include <cmath>

#include "models/gif_common.hpp"
#include "models/propagators.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier {
namespace {

using namespace receptor_ports;

enum Var {
  V_m,
  E_sfa,
  I_stc,
  I_stim,
  C_m,
  g_L,
  E_L,
  V_reset,
  Delta_V,
  V_T_star,
  lambda_0,
  t_ref,
  I_e,
  tau_minus,
  tau_minus_triplet
};
// Per neuron; then per receptor P11 and P21.
enum Internal { P30, P31, P33, n_fixed };

class GifPscExpMultisynapse final : public Ports<false> {
 public:
  const char* name() const override { return "gif_psc_exp_multisynapse"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "E_sfa", "I_stc"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", -70.0, "mV"},      {"E_sfa", 0.0, "mV"},      {"I_stc", 0.0, "pA"},
        {"I_stim", 0.0, "pA"},     {"C_m", 80.0, "pF"},       {"g_L", 4.0, "nS"},
        {"E_L", -70.0, "mV"},      {"V_reset", -55.0, "mV"},  {"Delta_V", 0.5, "mV"},
        {"V_T_star", -35.0, "mV"}, {"lambda_0", 1.0, "1/s"},  {"t_ref", 4.0, "ms"},
        {"I_e", 0.0, "pA"},        {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override { return gif::list_variables(); }
  const std::vector<ListParameter>& list_parameters() const override {
    static const std::vector<ListParameter> lists{{"tau_syn", {2.0}, "ms", "n_receptors", ""}};
    return lists;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    gif::validate(g, i, {g_L, Delta_V, C_m, tau_minus}, t_ref, lambda_0);
  }

  void calibrate(NeuronGroup& g, double h) const override {
    const Receptors& r = receptors(g);
    g.internals.assign(n_fixed + 2 * r.count(), std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    gif::calibrate_lists(g, h);
    for (size_t i = 0; i < g.size(); ++i) {
      const double cm = g.vars[C_m][i], tm = cm / g.vars[g_L][i];
      g.internals[P30][i] = -1.0 / cm * std::expm1(-h / tm) * tm;
      g.internals[P31][i] = -std::expm1(-h / tm);
      g.internals[P33][i] = std::exp(-h / tm);
      for (size_t q = 0; q < r.count(); ++q) {
        g.internals[n_fixed + 2 * q][i] = std::exp(-h / r.tau_syn[q]);
        g.internals[n_fixed + 2 * q + 1][i] = propagator_exp_current(r.tau_syn[q], tm, cm, h);
      }
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    auto& v = g.vars;
    Receptors& ports = receptors(g);
    const size_t n = g.size();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double* current = in.current + g.first_input;
      const uint64_t step = uint64_t(ctx.origin + lag);
      for (size_t i = 0; i < n; ++i) {
        const auto p = [&](size_t k) { return g.internals[k][i]; };
        v[I_stc][i] = gif::sum(g, i, gif::stc_elems, 0.0);
        v[E_sfa][i] = gif::sum(g, i, gif::sfa_elems, v[V_T_star][i]);
        gif::decay(g, i);
        double synaptic = 0.0;
        for (size_t q = 0; q < ports.count(); ++q) {
          double& i_syn = ports.current[q * n + i];
          synaptic += p(n_fixed + 2 * q + 1) * i_syn;
          i_syn = p(n_fixed + 2 * q) * i_syn + PortInput(g, in, uint32_t(q)).take(i);
        }
        if (g.counters[i] == 0) {
          v[V_m][i] =
              p(P30) * (v[I_stim][i] + v[I_e][i] - v[I_stc][i]) + p(P33) * v[V_m][i] + p(P31) * v[E_L][i] + synaptic;
          if (gif::fires(g, i, v[V_m][i], v[E_sfa][i], v[lambda_0][i], v[Delta_V][i], ctx, step)) {
            g.counters[i] = ctx.steps(v[t_ref][i]);
            ctx.spike(g, i, lag);
          }
        } else {
          --g.counters[i];
          v[V_m][i] = v[V_reset][i];
        }
        v[I_stim][i] = current[i];
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GifPscExpMultisynapse);

}  // namespace ranvier
