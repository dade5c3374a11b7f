// Hodgkin-Huxley neuron with the Traub & Miles (1991) channel kinetics and exponentially
// decaying synaptic conductances (NEST's hh_cond_exp_traub, as in Brette et al. 2007's COBAHH
// benchmark), integrated with the adaptive RKF45 solver at NEST's tolerance (absolute 1e-3
// on every state variable). It fires when V_m has passed V_T + 30 mV and starts to fall,
// then ignores threshold crossings for t_ref.
#include <cmath>

#include "models/ode_neuron.hpp"
#include "models/traub_rates.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_L,
  C_m,
  g_Na,
  g_K,
  g_L,
  E_Na,
  E_K,
  V_T,
  E_ex,
  E_in,
  tau_syn_ex,
  tau_syn_in,
  t_ref,
  I_e,
  tau_minus,
  tau_minus_triplet,
  Act_m,
  Inact_h,
  Act_n,
  g_ex,
  g_in,
  I_stim_var,
  step_var
};

constexpr int W = ode::lanes;

// The solver's exponential, in the right-hand side and for the initial gates.
constexpr auto solver_exp = [](double x) { return ode::exp(x); };

class HhCondExpTraub final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 6> state = {V_m, Act_m, Inact_h, Act_n, g_ex, g_in};
  static constexpr int I_stim = I_stim_var, integration_step = step_var;

  struct System {
    static constexpr int n = 6;
    double C_m[W], g_Na[W], g_K[W], g_L[W], E_Na[W], E_K[W], E_L[W], V_T[W], E_ex[W], E_in[W], tau_ex[W], tau_in[W],
        I[W];  // I = I_e + I_stim
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      C_m[l] = v(Var::C_m), g_Na[l] = v(Var::g_Na), g_K[l] = v(Var::g_K), g_L[l] = v(Var::g_L);
      E_Na[l] = v(Var::E_Na), E_K[l] = v(Var::E_K), E_L[l] = v(Var::E_L), V_T[l] = v(Var::V_T);
      E_ex[l] = v(Var::E_ex), E_in[l] = v(Var::E_in), tau_ex[l] = v(tau_syn_ex), tau_in[l] = v(tau_syn_in);
      I[l] = v(I_e) + i_stim;
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double V = y[l], m = y[W + l], h = y[2 * W + l], nn = y[3 * W + l];
        const double ge = y[4 * W + l], gi = y[5 * W + l];
        const double I_Na = g_Na[l] * m * m * m * h * (V - E_Na[l]);
        const double I_K = g_K[l] * nn * nn * nn * nn * (V - E_K[l]);
        const double I_L = g_L[l] * (V - E_L[l]);
        f[l] = (-I_Na - I_K - I_L - ge * (V - E_ex[l]) - gi * (V - E_in[l]) + I[l]) / C_m[l];
        const TraubRates r(V - V_T[l], solver_exp);
        f[W + l] = r.alpha_m - (r.alpha_m + r.beta_m) * m;
        f[2 * W + l] = r.alpha_h - (r.alpha_h + r.beta_h) * h;
        f[3 * W + l] = r.alpha_n - (r.alpha_n + r.beta_n) * nn;
        f[4 * W + l] = -ge / tau_ex[l];
        f[5 * W + l] = -gi / tau_in[l];
      }
    }
  };

  const char* name() const override { return "hh_cond_exp_traub"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "Act_m", "Act_n", "Inact_h", "g_ex", "g_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    // NEST starts the gates at the steady state of the rates taken at u = E_L (-60 mV), not at
    // E_L - V_T: the gates start nearly closed (m, n) and open (h).
    static const std::vector<Variable> vars = [] {
      const TraubRates r(-60.0, solver_exp);
      return std::vector<Variable>{{"V_m", -60.0, "mV"},
                                   {"E_L", -60.0, "mV"},
                                   {"C_m", 200.0, "pF"},
                                   {"g_Na", 20000.0, "nS"},
                                   {"g_K", 6000.0, "nS"},
                                   {"g_L", 10.0, "nS"},
                                   {"E_Na", 50.0, "mV"},
                                   {"E_K", -90.0, "mV"},
                                   {"V_T", -63.0, "mV"},
                                   {"E_ex", 0.0, "mV"},
                                   {"E_in", -80.0, "mV"},
                                   {"tau_syn_ex", 5.0, "ms"},
                                   {"tau_syn_in", 10.0, "ms"},
                                   {"t_ref", 2.0, "ms"},
                                   {"I_e", 0.0, "pA"},
                                   {"tau_minus", 20.0, "ms"},
                                   {"tau_minus_triplet", 110.0, "ms"},
                                   {"Act_m", r.alpha_m / (r.alpha_m + r.beta_m), ""},
                                   {"Inact_h", r.alpha_h / (r.alpha_h + r.beta_h), ""},
                                   {"Act_n", r.alpha_n / (r.alpha_n + r.beta_n), ""},
                                   {"g_ex", 0.0, "nS"},
                                   {"g_in", 0.0, "nS"},
                                   {"I_stim", 0.0, "pA"},
                                   {"integration_step", 0.0, "ms"}};
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
    if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    for (int k : {Act_m, Inact_h, Act_n})
      if (!(v(k) >= 0)) throw bad_value(variables()[size_t(k)].name.c_str(), v(k), ">= 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<HhCondExpTraub>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double v_before) {
    auto& [g, i, l, y, ctx, lag] = at;
    y[4 * W + l] += input.excitatory;
    y[5 * W + l] -= input.inhibitory;
    int32_t& r = g.counters[i];
    if (r > 0) {
      --r;
    } else if (y[l] >= sys.V_T[l] + 30.0 && v_before > y[l]) {
      r = ctx.steps(g.vars[t_ref][i]);
      ctx.spike(g, i, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(HhCondExpTraub);

}  // namespace ranvier
