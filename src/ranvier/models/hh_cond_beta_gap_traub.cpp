// Hodgkin-Huxley neuron of Traub and Miles (1991) with beta-shaped synaptic conductances and
// gap junctions (NEST's hh_cond_beta_gap_traub; the gap current as models/gap_neuron.hpp).
// Integrated with the adaptive RKF45 solver at NEST's tolerance (absolute 1e-3); fires when
// V_m has passed V_T + 30 mV and starts to fall, then ignores threshold crossings for t_ref.
// A spike of weight w makes its conductance peak at |w| nS (negative weights: inhibitory).
#include <cmath>

#include "models/beta_peak.hpp"
#include "models/gap_neuron.hpp"
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
  tau_rise_ex,
  tau_decay_ex,
  tau_rise_in,
  tau_decay_in,
  t_ref,
  I_e,
  tau_minus,
  tau_minus_triplet,
  Act_m,
  Inact_h,
  Act_n,
  dg_ex,
  g_ex,
  dg_in,
  g_in,
  I_stim_var,
  step_var
};

constexpr int W = ode::lanes;

class HhCondBetaGapTraub final : public gap::GapNeuron<HhCondBetaGapTraub> {
 public:
  static constexpr std::array<int, 8> state = {V_m, Act_m, Inact_h, Act_n, dg_ex, g_ex, dg_in, g_in};
  static constexpr int I_stim = I_stim_var, integration_step = step_var;

  struct System : gap::GapCurrent {
    static constexpr int n = 8;
    double C_m[W], g_Na[W], g_K[W], g_L[W], E_Na[W], E_K[W], E_L[W], V_T[W], E_ex[W], E_in[W];
    double rise_ex[W], decay_ex[W], rise_in[W], decay_in[W], I_stim[W], I_e[W];
    double peak_ex[W], peak_in[W];  // the jump of dg per unit weight that makes g peak at the weight
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      C_m[l] = v(Var::C_m), g_Na[l] = v(Var::g_Na), g_K[l] = v(Var::g_K), g_L[l] = v(Var::g_L);
      E_Na[l] = v(Var::E_Na), E_K[l] = v(Var::E_K), E_L[l] = v(Var::E_L), V_T[l] = v(Var::V_T);
      E_ex[l] = v(Var::E_ex), E_in[l] = v(Var::E_in), I_stim[l] = i_stim, I_e[l] = v(Var::I_e);
      rise_ex[l] = v(tau_rise_ex), decay_ex[l] = v(tau_decay_ex), rise_in[l] = v(tau_rise_in);
      decay_in[l] = v(tau_decay_in);
      peak_ex[l] = g.internals[0][i], peak_in[l] = g.internals[1][i];
      GapCurrent::load(g, i, l);
    }
    [[gnu::always_inline]] double voltage_slope(const double* y, int l, double t) const {
      const double V = y[l], m = y[W + l], h = y[2 * W + l], nn = y[3 * W + l];
      const double I_Na = g_Na[l] * m * m * m * h * (V - E_Na[l]);
      const double I_K = g_K[l] * nn * nn * nn * nn * (V - E_K[l]);
      const double I_L = g_L[l] * (V - E_L[l]);
      const double I_syn_ex = y[5 * W + l] * (V - E_ex[l]);
      const double I_syn_in = y[7 * W + l] * (V - E_in[l]);
      return (-I_Na - I_K - I_L - I_syn_ex - I_syn_in + I_stim[l] + current(l, V, t) + I_e[l]) / C_m[l];
    }
    void derivatives_at(const double* t, const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const TraubRates r(y[l] - V_T[l], [](double x) { return ode::exp(x); });
        f[l] = voltage_slope(y, l, t[l]);
        f[W + l] = r.alpha_m - (r.alpha_m + r.beta_m) * y[W + l];
        f[2 * W + l] = r.alpha_h - (r.alpha_h + r.beta_h) * y[2 * W + l];
        f[3 * W + l] = r.alpha_n - (r.alpha_n + r.beta_n) * y[3 * W + l];
        f[4 * W + l] = -y[4 * W + l] / decay_ex[l];
        f[5 * W + l] = y[4 * W + l] - (y[5 * W + l] / rise_ex[l]);
        f[6 * W + l] = -y[6 * W + l] / decay_in[l];
        f[7 * W + l] = y[6 * W + l] - (y[7 * W + l] / rise_in[l]);
      }
    }
  };

  const char* name() const override { return "hh_cond_beta_gap_traub"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"Act_m", "Act_n", "Inact_h", "V_m", "g_ex", "g_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    // the gates at their steady state for V_m = E_L (NEST's, without the shift by V_T)
    static const std::vector<Variable> vars = [] {
      const TraubRates r(-60.0, [](double x) { return std::exp(x); });
      return std::vector<Variable>{{"V_m", -60.0, "mV"},
                                   {"E_L", -60.0, "mV"},
                                   {"C_m", 200.0, "pF"},
                                   {"g_Na", 20000.0, "nS"},
                                   {"g_K", 6000.0, "nS"},
                                   {"g_L", 10.0, "nS"},
                                   {"E_Na", 50.0, "mV"},
                                   {"E_K", -90.0, "mV"},
                                   {"V_T", -50.0, "mV"},
                                   {"E_ex", 0.0, "mV"},
                                   {"E_in", -80.0, "mV"},
                                   {"tau_rise_ex", 0.5, "ms"},
                                   {"tau_decay_ex", 5.0, "ms"},
                                   {"tau_rise_in", 0.5, "ms"},
                                   {"tau_decay_in", 10.0, "ms"},
                                   {"t_ref", 2.0, "ms"},
                                   {"I_e", 0.0, "pA"},
                                   {"tau_minus", 20.0, "ms"},
                                   {"tau_minus_triplet", 110.0, "ms"},
                                   {"Act_m", r.alpha_m / (r.alpha_m + r.beta_m), ""},
                                   {"Inact_h", r.alpha_h / (r.alpha_h + r.beta_h), ""},
                                   {"Act_n", r.alpha_n / (r.alpha_n + r.beta_n), ""},
                                   {"dg_ex", 0.0, "nS/ms"},
                                   {"g_ex", 0.0, "nS"},
                                   {"dg_in", 0.0, "nS/ms"},
                                   {"g_in", 0.0, "nS"},
                                   {"I_stim", 0.0, "pA"},
                                   {"integration_step", 0.0, "ms"}};
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    for (int k : {tau_rise_ex, tau_decay_ex, tau_rise_in, tau_decay_in})
      if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name, v(k), "> 0");
    for (int k : {g_Na, g_K, g_L})
      if (!(v(k) >= 0)) throw bad_value(variables()[size_t(k)].name, v(k), ">= 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    validate_traces(g, i);
  }
  void calibrate(NeuronGroup& g, double h) const override {
    ode_neuron::start_steps(g, integration_step, h);
    g.internals.assign(2, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      g.internals[0][i] = beta_peak_factor(g.vars[tau_rise_ex][i], g.vars[tau_decay_ex][i]);
      g.internals[1][i] = beta_peak_factor(g.vars[tau_rise_in][i], g.vars[tau_decay_in][i]);
    }
  }

  static ode::Tolerance tolerance() { return ode::on_values(1e-3, 0.0); }
  // The step's spikes: inhibitory weights (negative) open the inhibitory conductance.
  static void relaxed(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input) {
    auto& [g, i, l, y, ctx, lag] = at;
    y[4 * W + l] += input.excitatory * sys.peak_ex[l];
    y[6 * W + l] += -input.inhibitory * sys.peak_in[l];
  }
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double v_before) {
    relaxed(at, sys, input);
    auto& [g, i, l, y, ctx, lag] = at;
    int32_t& r = g.counters[i];
    if (r > 0) {
      --r;
    } else if (y[l] >= sys.V_T[l] + 30. && v_before > y[l]) {
      r = ctx.steps(g.vars[t_ref][i]);
      ctx.spike(g, i, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(HhCondBetaGapTraub);

}  // namespace ranvier
