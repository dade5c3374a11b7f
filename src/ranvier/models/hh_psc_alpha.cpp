// Hodgkin-Huxley neuron with alpha-shaped post-synaptic currents (NEST's hh_psc_alpha;
// Hodgkin & Huxley 1952, rates as in Gerstner & Kistler 2002), integrated with the adaptive
// RKF45 solver at NEST's tolerance (absolute 1e-3 on every state variable). It fires when
// V_m has passed 0 mV and starts to fall, then ignores threshold crossings for t_ref.
#include <cmath>

#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m, E_L, C_m, g_Na, g_K, g_L, E_Na, E_K, t_ref, tau_syn_ex, tau_syn_in, I_e, tau_minus, Act_m, Inact_h,
  Act_n, dI_syn_ex, I_syn_ex, dI_syn_in, I_syn_in, I_stim_var, step_var
};

struct Rates {
  double alpha_m, beta_m, alpha_h, beta_h, alpha_n, beta_n;
  explicit Rates(double V)
      : alpha_m(0.1 * (V + 40.0) / (1.0 - std::exp(-(V + 40.0) / 10.0))),
        beta_m(4.0 * std::exp(-(V + 65.0) / 18.0)),
        alpha_h(0.07 * std::exp(-(V + 65.0) / 20.0)),
        beta_h(1.0 / (1.0 + std::exp(-(V + 35.0) / 10.0))),
        alpha_n(0.01 * (V + 55.0) / (1.0 - std::exp(-(V + 55.0) / 10.0))),
        beta_n(0.125 * std::exp(-(V + 65.0) / 80.0)) {}
};

class HhPscAlpha final : public NeuronModel {
 public:
  static constexpr std::array<int, 8> state = {V_m, Act_m, Inact_h, Act_n, dI_syn_ex, I_syn_ex, dI_syn_in, I_syn_in};
  static constexpr int I_stim = I_stim_var, integration_step = step_var;

  struct System {
    static constexpr int n = 8;
    double C_m, g_Na, g_K, g_L, E_Na, E_K, E_L, tau_ex, tau_in, I;  // I = I_e + I_stim
    void derivatives(const double* y, double* f) const {
      const double V = y[0], m = y[1], h = y[2], nn = y[3];
      const Rates r(V);
      const double I_Na = g_Na * m * m * m * h * (V - E_Na);
      const double I_K = g_K * nn * nn * nn * nn * (V - E_K);
      const double I_L = g_L * (V - E_L);
      f[0] = (-(I_Na + I_K + I_L) + I + y[5] + y[7]) / C_m;
      f[1] = r.alpha_m * (1.0 - m) - r.beta_m * m;
      f[2] = r.alpha_h * (1.0 - h) - r.beta_h * h;
      f[3] = r.alpha_n * (1.0 - nn) - r.beta_n * nn;
      f[4] = -y[4] / tau_ex;
      f[5] = y[4] - y[5] / tau_ex;
      f[6] = -y[6] / tau_in;
      f[7] = y[6] - y[7] / tau_in;
    }
  };

  const char* name() const override { return "hh_psc_alpha"; }
  const std::vector<Variable>& variables() const override {
    // The gates start at their steady state for V_m = -65 mV.
    static const std::vector<Variable> vars = [] {
      const Rates r(-65.0);
      return std::vector<Variable>{
          {"V_m", -65.0},      {"E_L", -54.402},    {"C_m", 100.0},   {"g_Na", 12000.0},
          {"g_K", 3600.0},     {"g_L", 30.0},       {"E_Na", 50.0},   {"E_K", -77.0},
          {"t_ref", 2.0},      {"tau_syn_ex", 0.2}, {"tau_syn_in", 2.0}, {"I_e", 0.0},
          {"tau_minus", 20.0}, {"Act_m", r.alpha_m / (r.alpha_m + r.beta_m)},
          {"Inact_h", r.alpha_h / (r.alpha_h + r.beta_h)}, {"Act_n", r.alpha_n / (r.alpha_n + r.beta_n)},
          {"dI_syn_ex", 0.0},  {"I_syn_ex", 0.0},   {"dI_syn_in", 0.0}, {"I_syn_in", 0.0},
          {"I_stim", 0.0},     {"integration_step", 0.0}};
    }();
    return vars;
  }
  int tau_minus_index() const override { return tau_minus; }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) iaf::reject("C_m", v(C_m), "> 0");
    if (!(v(t_ref) >= 0)) iaf::reject("t_ref", v(t_ref), ">= 0");
    if (!(v(tau_syn_ex) > 0)) iaf::reject("tau_syn_ex", v(tau_syn_ex), "> 0");
    if (!(v(tau_syn_in) > 0)) iaf::reject("tau_syn_in", v(tau_syn_in), "> 0");
    for (int k : {g_Na, g_K, g_L})
      if (!(v(k) >= 0)) iaf::reject(variables()[size_t(k)].name.c_str(), v(k), ">= 0");
    for (int k : {Act_m, Inact_h, Act_n})
      if (!(v(k) >= 0)) iaf::reject(variables()[size_t(k)].name.c_str(), v(k), ">= 0");
    if (!(v(tau_minus) > 0)) iaf::reject("tau_minus", v(tau_minus), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<HhPscAlpha>(g, ctx); }

  static void advance(NeuronGroup& g, size_t i, double* y, double i_stim, ode_neuron::Input input, double& step,
                      UpdateContext& ctx, int lag) {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    const double te = v(tau_syn_ex), ti = v(tau_syn_in);
    const System sys{v(C_m), v(g_Na), v(g_K), v(g_L), v(E_Na), v(E_K), v(E_L), te, ti, v(I_e) + i_stim};
    const double v_before = y[0];
    ode::integrate(sys, y, ctx.h, step, ode::on_values(1e-3, 0.0));
    // An alpha current of weight w peaks at w pA; inhibitory currents stay negative.
    y[4] += input.excitatory * M_E / te;
    y[6] += input.inhibitory * M_E / ti;
    int32_t& r = g.counters[i];
    if (r > 0) {
      --r;
    } else if (y[0] >= 0.0 && v_before > y[0]) {
      r = ode_neuron::refractory_steps(v(t_ref), ctx.h);
      ctx.spike(g, i, lag);
    }
  }
};

}  // namespace

const NeuronModel& hh_psc_alpha_model() {
  static const HhPscAlpha model;
  return model;
}

}  // namespace ranvier
