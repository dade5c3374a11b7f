// Hodgkin-Huxley neuron with gap junctions (NEST's hh_psc_alpha_gap; Mancilla et al. 2007,
// as NEST 3.10 defines it): Na, two delayed-rectifier K channels (Kv1, Kv3) and a leak, alpha
// post-synaptic currents, and the current of its gap junctions (models/gap_neuron.hpp).
// Integrated with the adaptive RKF45 solver at NEST's
// tolerance for this model (absolute 1e-6); fires when V_m has passed 0 mV and starts to fall,
// then ignores threshold crossings for t_ref.
#include <cmath>

#include "models/gap_neuron.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_L,
  C_m,
  g_Na,
  g_Kv1,
  g_Kv3,
  g_L,
  E_Na,
  E_K,
  t_ref,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  tau_minus,
  tau_minus_triplet,
  Act_m,
  Inact_h,
  Act_n,
  Inact_p,
  dI_syn_ex,
  I_syn_ex,
  dI_syn_in,
  I_syn_in,
  I_stim_var,
  step_var
};

constexpr int W = ode::lanes;

struct Rates {
  double alpha_m, beta_m, alpha_h, beta_h, alpha_p, beta_p, alpha_n, beta_n;
  template <class Exp>
  [[gnu::always_inline]] Rates(double V, Exp exp)
      : alpha_m(40. * (V - 75.5) / (1. - exp(-(V - 75.5) / 13.5))),
        beta_m(1.2262 / exp(V / 42.248)),
        alpha_h(0.0035 / exp(V / 24.186)),
        beta_h(0.017 * (51.25 + V) / (1. - exp(-(51.25 + V) / 5.2))),
        alpha_p((V - 95.) / (1. - exp(-(V - 95.) / 11.8))),
        beta_p(0.025 / exp(V / 22.222)),
        alpha_n(0.014 * (V + 44.) / (1. - exp(-(V + 44.) / 2.3))),
        beta_n(0.0043 / exp((V + 44.) / 34.)) {}
};

class HhPscAlphaGap final : public gap::GapNeuron<HhPscAlphaGap> {
 public:
  static constexpr std::array<int, 9> state = {V_m,       Act_m,    Inact_h,   Act_n,   Inact_p,
                                               dI_syn_ex, I_syn_ex, dI_syn_in, I_syn_in};
  static constexpr int I_stim = I_stim_var, integration_step = step_var;

  struct System : gap::GapCurrent {
    static constexpr int n = 9;
    double C_m[W], g_Na[W], g_Kv1[W], g_Kv3[W], g_L[W], E_Na[W], E_K[W], E_L[W], tau_ex[W], tau_in[W], I_stim[W],
        I_e[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      C_m[l] = v(Var::C_m), g_Na[l] = v(Var::g_Na), g_Kv1[l] = v(Var::g_Kv1), g_Kv3[l] = v(Var::g_Kv3);
      g_L[l] = v(Var::g_L), E_Na[l] = v(Var::E_Na), E_K[l] = v(Var::E_K), E_L[l] = v(Var::E_L);
      tau_ex[l] = v(tau_syn_ex), tau_in[l] = v(tau_syn_in), I_stim[l] = i_stim, I_e[l] = v(Var::I_e);
      GapCurrent::load(g, i, l);
    }
    // dV/dt of lane l at time t within the step (the partners' interpolation runs over it)
    [[gnu::always_inline]] double voltage_slope(const double* y, int l, double t) const {
      const double V = y[l], m = y[W + l], h = y[2 * W + l], nn = y[3 * W + l], p = y[4 * W + l];
      const double I_Na = g_Na[l] * m * m * m * h * (V - E_Na[l]);
      const double I_K = (g_Kv1[l] * nn * nn * nn * nn + g_Kv3[l] * p * p) * (V - E_K[l]);
      const double I_L = g_L[l] * (V - E_L[l]);
      return (-(I_Na + I_K + I_L) + I_stim[l] + I_e[l] + y[6 * W + l] + y[8 * W + l] + current(l, V, t)) / C_m[l];
    }
    void derivatives_at(const double* t, const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double V = y[l], m = y[W + l], h = y[2 * W + l], nn = y[3 * W + l], p = y[4 * W + l];
        const Rates r(V, [](double x) { return ode::exp(x); });
        f[l] = voltage_slope(y, l, t[l]);
        f[W + l] = r.alpha_m * (1 - m) - r.beta_m * m;
        f[2 * W + l] = r.alpha_h * (1 - h) - r.beta_h * h;
        f[3 * W + l] = r.alpha_n * (1 - nn) - r.beta_n * nn;
        f[4 * W + l] = r.alpha_p * (1 - p) - r.beta_p * p;
        f[5 * W + l] = -y[5 * W + l] / tau_ex[l];
        f[6 * W + l] = y[5 * W + l] - (y[6 * W + l] / tau_ex[l]);
        f[7 * W + l] = -y[7 * W + l] / tau_in[l];
        f[8 * W + l] = y[7 * W + l] - (y[8 * W + l] / tau_in[l]);
      }
    }
  };

  const char* name() const override { return "hh_psc_alpha_gap"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"Act_m", "Act_n", "I_syn_ex", "I_syn_in", "Inact_h", "Inact_p", "V_m"};
  }
  const std::vector<Variable>& own_variables() const override {
    // NEST's resting potential, the gates at their steady state there
    static const std::vector<Variable> vars = [] {
      const double V = -69.60401191631222;
      const Rates r(V, [](double x) { return std::exp(x); });
      return std::vector<Variable>{{"V_m", V, "mV"},
                                   {"E_L", -70.0, "mV"},
                                   {"C_m", 40.0, "pF"},
                                   {"g_Na", 4500.0, "nS"},
                                   {"g_Kv1", 9.0, "nS"},
                                   {"g_Kv3", 9000.0, "nS"},
                                   {"g_L", 10.0, "nS"},
                                   {"E_Na", 74.0, "mV"},
                                   {"E_K", -90.0, "mV"},
                                   {"t_ref", 2.0, "ms"},
                                   {"tau_syn_ex", 0.2, "ms"},
                                   {"tau_syn_in", 2.0, "ms"},
                                   {"I_e", 0.0, "pA"},
                                   {"tau_minus", 20.0, "ms"},
                                   {"tau_minus_triplet", 110.0, "ms"},
                                   {"Act_m", r.alpha_m / (r.alpha_m + r.beta_m), ""},
                                   {"Inact_h", r.alpha_h / (r.alpha_h + r.beta_h), ""},
                                   {"Act_n", r.alpha_n / (r.alpha_n + r.beta_n), ""},
                                   {"Inact_p", r.alpha_p / (r.alpha_p + r.beta_p), ""},
                                   {"dI_syn_ex", 0.0, "pA/ms"},
                                   {"I_syn_ex", 0.0, "pA"},
                                   {"dI_syn_in", 0.0, "pA/ms"},
                                   {"I_syn_in", 0.0, "pA"},
                                   {"I_stim", 0.0, "pA"},
                                   {"integration_step", 0.0, "ms"}};
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
    if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
    for (int k : {g_Na, g_Kv1, g_Kv3, g_L})
      if (!(v(k) >= 0)) throw bad_value(variables()[size_t(k)].name.c_str(), v(k), ">= 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    validate_traces(g, i);
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }

  static ode::Tolerance tolerance() { return ode::on_values(1e-6, 0.0); }
  // The step's spikes: an alpha current of weight w peaks at w pA; inhibitory ones stay negative.
  static void relaxed(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input) {
    auto& [g, i, l, y, ctx, lag] = at;
    y[5 * W + l] += input.excitatory * (1.0 * M_E / sys.tau_ex[l]);
    y[7 * W + l] += input.inhibitory * (1.0 * M_E / sys.tau_in[l]);
  }
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double v_before) {
    relaxed(at, sys, input);
    auto& [g, i, l, y, ctx, lag] = at;
    int32_t& r = g.counters[i];
    if (r > 0) {
      --r;
    } else if (y[l] >= 0.0 && v_before > y[l]) {
      r = ctx.steps(g.vars[t_ref][i]);
      ctx.spike(g, i, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(HhPscAlphaGap);

}  // namespace ranvier
