// Hodgkin-Huxley neuron with alpha-shaped post-synaptic currents (NEST's hh_psc_alpha;
// Hodgkin & Huxley 1952, rates as in Gerstner & Kistler 2002), integrated with the adaptive
// RKF45 solver at NEST's tolerance (absolute 1e-3 on every state variable). It fires when
// V_m has passed 0 mV and starts to fall, then ignores threshold crossings for t_ref.
// hh_psc_alpha_clopath adds the filtered potentials u_bar_plus, u_bar_minus and u_bar_bar,
// from which it writes its Clopath history each step (models/clopath_history.hpp).
#include <cmath>

#include "models/clopath_history.hpp"
#include "models/ode_neuron.hpp"

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
  t_ref,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  tau_minus,
  tau_minus_triplet,
  Act_m,
  Inact_h,
  Act_n,
  dI_syn_ex,
  I_syn_ex,
  dI_syn_in,
  I_syn_in,
  I_stim_var,
  step_var,
  u_bar_plus,  // hh_psc_alpha_clopath's from here
  u_bar_minus,
  u_bar_bar,
  tau_u_bar_plus,
  tau_u_bar_minus,
  tau_u_bar_bar,
  A_LTD  // clopath_variables() from here
};

constexpr int W = ode::lanes;

struct Rates {
  double alpha_m, beta_m, alpha_h, beta_h, alpha_n, beta_n;
  [[gnu::always_inline]] explicit Rates(double V)
      : alpha_m(0.1 * (V + 40.0) / (1.0 - ode::exp(-(V + 40.0) / 10.0))),
        beta_m(4.0 * ode::exp(-(V + 65.0) / 18.0)),
        alpha_h(0.07 * ode::exp(-(V + 65.0) / 20.0)),
        beta_h(1.0 / (1.0 + ode::exp(-(V + 35.0) / 10.0))),
        alpha_n(0.01 * (V + 55.0) / (1.0 - ode::exp(-(V + 55.0) / 10.0))),
        beta_n(0.125 * ode::exp(-(V + 65.0) / 80.0)) {}
};

template <bool Clopath>
class HhPscAlpha final : public NeuronModel, public ode_neuron::DefaultRules {
  static constexpr std::array<int, 8> hh_state = {V_m, Act_m, Inact_h, Act_n, dI_syn_ex, I_syn_ex, dI_syn_in, I_syn_in};

 public:
  static constexpr auto state = [] {
    std::array<int, Clopath ? 11 : 8> s{};
    std::copy(hh_state.begin(), hh_state.end(), s.begin());
    if constexpr (Clopath) s[8] = u_bar_plus, s[9] = u_bar_minus, s[10] = u_bar_bar;
    return s;
  }();
  static constexpr int I_stim = I_stim_var, integration_step = step_var;

  struct System {
    static constexpr int n = int(state.size());
    double C_m[W], g_Na[W], g_K[W], g_L[W], E_Na[W], E_K[W], E_L[W], tau_ex[W], tau_in[W], I_e[W], I_stim[W];
    double tau_plus[W], tau_minus[W], tau_bar[W];  // hh_psc_alpha_clopath's filters
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      C_m[l] = v(Var::C_m), g_Na[l] = v(Var::g_Na), g_K[l] = v(Var::g_K), g_L[l] = v(Var::g_L);
      E_Na[l] = v(Var::E_Na), E_K[l] = v(Var::E_K), E_L[l] = v(Var::E_L);
      tau_ex[l] = v(tau_syn_ex), tau_in[l] = v(tau_syn_in), I_e[l] = v(Var::I_e), I_stim[l] = i_stim;
      if constexpr (Clopath)
        tau_plus[l] = v(tau_u_bar_plus), tau_minus[l] = v(tau_u_bar_minus), tau_bar[l] = v(tau_u_bar_bar);
    }
    // NEST's right-hand side, its currents added in its order.
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double V = y[l], m = y[W + l], h = y[2 * W + l], nn = y[3 * W + l];
        const Rates r(V);
        const double I_Na = g_Na[l] * m * m * m * h * (V - E_Na[l]);
        const double I_K = g_K[l] * nn * nn * nn * nn * (V - E_K[l]);
        const double I_L = g_L[l] * (V - E_L[l]);
        f[l] = (-(I_Na + I_K + I_L) + I_stim[l] + I_e[l] + y[5 * W + l] + y[7 * W + l]) / C_m[l];
        f[W + l] = r.alpha_m * (1.0 - m) - r.beta_m * m;
        f[2 * W + l] = r.alpha_h * (1.0 - h) - r.beta_h * h;
        f[3 * W + l] = r.alpha_n * (1.0 - nn) - r.beta_n * nn;
        f[4 * W + l] = -y[4 * W + l] / tau_ex[l];
        f[5 * W + l] = y[4 * W + l] - y[5 * W + l] / tau_ex[l];
        f[6 * W + l] = -y[6 * W + l] / tau_in[l];
        f[7 * W + l] = y[6 * W + l] - y[7 * W + l] / tau_in[l];
        if constexpr (Clopath) {
          f[8 * W + l] = (-y[8 * W + l] + V) / tau_plus[l];
          f[9 * W + l] = (-y[9 * W + l] + V) / tau_minus[l];
          f[10 * W + l] = (-y[10 * W + l] + y[9 * W + l]) / tau_bar[l];
        }
      }
    }
  };

  const char* name() const override { return Clopath ? "hh_psc_alpha_clopath" : "hh_psc_alpha"; }
  PostHistory post_history() const override { return Clopath ? PostHistory::clopath : PostHistory::none; }
  std::optional<std::vector<std::string>> recordables() const override {
    std::vector<std::string> names{"V_m", "Act_m", "Act_n", "I_syn_ex", "I_syn_in", "Inact_h"};
    if (Clopath) names.insert(names.end(), {"u_bar_plus", "u_bar_minus", "u_bar_bar"});
    return names;
  }
  const std::vector<Variable>& own_variables() const override {
    // The gates start at their steady state for V_m = -65 mV.
    static const std::vector<Variable> vars = [] {
      const Rates r(-65.0);
      std::vector<Variable> v{{"V_m", -65.0, "mV"},
                              {"E_L", -54.402, "mV"},
                              {"C_m", 100.0, "pF"},
                              {"g_Na", 12000.0, "nS"},
                              {"g_K", 3600.0, "nS"},
                              {"g_L", 30.0, "nS"},
                              {"E_Na", 50.0, "mV"},
                              {"E_K", -77.0, "mV"},
                              {"t_ref", 2.0, "ms"},
                              {"tau_syn_ex", 0.2, "ms"},
                              {"tau_syn_in", 2.0, "ms"},
                              {"I_e", 0.0, "pA"},
                              {"tau_minus", 20.0, "ms"},
                              {"tau_minus_triplet", 110.0, "ms"},
                              {"Act_m", r.alpha_m / (r.alpha_m + r.beta_m), ""},
                              {"Inact_h", r.alpha_h / (r.alpha_h + r.beta_h), ""},
                              {"Act_n", r.alpha_n / (r.alpha_n + r.beta_n), ""},
                              {"dI_syn_ex", 0.0, "pA/ms"},
                              {"I_syn_ex", 0.0, "pA"},
                              {"dI_syn_in", 0.0, "pA/ms"},
                              {"I_syn_in", 0.0, "pA"},
                              {"I_stim", 0.0, "pA"},
                              {"integration_step", 0.0, "ms"}};
      if (!Clopath) return v;
      v.insert(v.end(), {{"u_bar_plus", 0.0, "mV"},
                         {"u_bar_minus", 0.0, "mV"},
                         {"u_bar_bar", 0.0, "mV"},
                         {"tau_u_bar_plus", 114.0, "ms"},
                         {"tau_u_bar_minus", 10.0, "ms"},
                         {"tau_u_bar_bar", 500.0, "ms"}});
      v.insert(v.end(), clopath_variables().begin(), clopath_variables().end());
      return v;
    }();
    return vars;
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    if (Clopath) g.state = std::make_unique<ClopathState>(g.size());
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
    if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
    for (int k : {g_Na, g_K, g_L})
      if (!(v(k) >= 0)) throw bad_value(variables()[size_t(k)].name.c_str(), v(k), ">= 0");
    for (int k : {Act_m, Inact_h, Act_n})
      if (!(v(k) >= 0)) throw bad_value(variables()[size_t(k)].name.c_str(), v(k), ">= 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    if (!Clopath) return;
    for (int k : {tau_u_bar_plus, tau_u_bar_minus, tau_u_bar_bar})
      if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name.c_str(), v(k), "> 0");
    if (!(v(A_LTD + 2) > 0)) throw bad_value("u_ref_squared", v(A_LTD + 2), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<HhPscAlpha>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double v_before) {
    auto& [g, i, l, y, ctx, lag] = at;
    // An alpha current of weight w peaks at w pA; inhibitory currents stay negative.
    y[4 * W + l] += input.excitatory * (M_E / sys.tau_ex[l]);
    y[6 * W + l] += input.inhibitory * (M_E / sys.tau_in[l]);
    if constexpr (Clopath)
      clopath_state(g).write(g, i, A_LTD, ctx.origin + lag + 1, ctx.h, y[l], y[8 * W + l], y[9 * W + l], y[10 * W + l]);
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

using HhPscAlphaPlain = HhPscAlpha<false>;
using HhPscAlphaClopath = HhPscAlpha<true>;
RANVIER_REGISTER_NEURON_MODEL(HhPscAlphaPlain);
RANVIER_REGISTER_NEURON_MODEL(HhPscAlphaClopath);

}  // namespace ranvier
