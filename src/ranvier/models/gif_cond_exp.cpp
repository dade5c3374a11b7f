// Generalized integrate-and-fire neuron with exponentially decaying synaptic conductances
// (NEST's gif_cond_exp): the adaptation and the stochastic spikes of models/gif_common.hpp,
// the membrane and the conductances integrated with the adaptive RKF45 solver at NEST's
// tolerance (absolute gsl_error_tol on every value), I_stc held over the step, V_m clamped at
// V_reset for t_ref after a spike. As NEST's, a step's spikes join the conductances after it.
#include "models/gif_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  g_ex,
  g_in,
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
  tau_syn_ex,
  tau_syn_in,
  E_ex,
  E_in,
  I_e,
  tau_minus,
  tau_minus_triplet,
  gsl_error_tol,
  integration_step
};
constexpr int W = ode::lanes;

class GifCondExp final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 3> state = {V_m, g_ex, g_in};
  static constexpr int I_stim = Var::I_stim, integration_step = Var::integration_step;

  struct System {
    static constexpr int n = 3;
    double C_m[W], g_L[W], E_L[W], V_reset[W], E_ex[W], E_in[W], tau_ex[W], tau_in[W], I[W], stc[W], sfa[W];
    bool refractory[W];
    // neuron i's parameters, and I_stc and E_sfa at the step's start (the elements decay after)
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      C_m[l] = v(Var::C_m), g_L[l] = v(Var::g_L), E_L[l] = v(Var::E_L), V_reset[l] = v(Var::V_reset);
      E_ex[l] = v(Var::E_ex), E_in[l] = v(Var::E_in), tau_ex[l] = v(tau_syn_ex), tau_in[l] = v(tau_syn_in);
      I[l] = i_stim + v(I_e);
      stc[l] = gif::sum(g, i, gif::stc_elems, 0.0);
      sfa[l] = gif::sum(g, i, gif::sfa_elems, v(V_T_star));
      refractory[l] = g.counters[i] > 0;
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double V = refractory[l] ? V_reset[l] : y[l];
        const double dv =
            (-g_L[l] * (V - E_L[l]) + I[l] - y[W + l] * (V - E_ex[l]) - y[2 * W + l] * (V - E_in[l]) - stc[l]) / C_m[l];
        f[l] = refractory[l] ? 0.0 : dv;
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = -y[2 * W + l] / tau_in[l];
      }
    }
  };

  // NEST's control: gsl_error_tol absolute on the values (DefaultRules' 1e-3 is its default)
  static void set_tolerance(const NeuronGroup& g, size_t i, int l, ode::Tolerance& tol) {
    tol.eps_abs[l] = g.vars[gsl_error_tol][i];
  }

  const char* name() const override { return "gif_cond_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "E_sfa", "I_stc", "g_ex", "g_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", -70.0, "mV"},
                                               {"g_ex", 0.0, "nS"},
                                               {"g_in", 0.0, "nS"},
                                               {"E_sfa", 0.0, "mV"},
                                               {"I_stc", 0.0, "pA"},
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
                                               {"E_ex", 0.0, "mV"},
                                               {"E_in", -85.0, "mV"},
                                               {"I_e", 0.0, "pA"},
                                               {"tau_minus", 20.0, "ms"},
                                               {"tau_minus_triplet", 110.0, "ms"},
                                               {"gsl_error_tol", 1e-3, ""},
                                               {"integration_step", 0.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override { return gif::list_variables(); }
  void validate(NeuronGroup& g, size_t i) const override {
    gif::validate(g, i, {g_L, Delta_V, C_m, tau_syn_ex, tau_syn_in, tau_minus, gsl_error_tol}, t_ref, lambda_0);
  }
  void calibrate(NeuronGroup& g, double h) const override {
    gif::calibrate_lists(g, h);
    ode_neuron::start_steps(g, integration_step, h);
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<GifCondExp>(g, ctx); }

  // After the step: the conductances take its spikes, then the escape-rate draw or the
  // refractory count-down (NEST's order).
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    g.vars[I_stc][i] = sys.stc[l];
    g.vars[E_sfa][i] = sys.sfa[l];
    gif::decay(g, i);
    y[W + l] += input.excitatory;
    y[2 * W + l] -= input.inhibitory;
    int32_t& r = g.counters[i];
    if (r == 0) {
      if (gif::fires(g, i, y[l], sys.sfa[l], g.vars[lambda_0][i], g.vars[Delta_V][i], ctx,
                     uint64_t(ctx.origin + lag))) {
        r = ctx.steps(g.vars[t_ref][i]);
        ctx.spike(g, i, lag);
      }
    } else {
      --r;
      y[l] = g.vars[V_reset][i];
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GifCondExp);

}  // namespace ranvier
