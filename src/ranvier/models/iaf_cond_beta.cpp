// Leaky integrate-and-fire neuron with beta-shaped synaptic conductances (NEST's
// iaf_cond_beta), integrated with the adaptive RKF45 solver at NEST's tolerance. A spike of
// weight w makes the conductance peak at w nS; as in NEST, dg decays with tau_decay and g
// with tau_rise (the difference of exponentials is the same either way round).
#include "models/beta_peak.hpp"
#include "models/iaf_cond_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

using namespace iaf_cond;
// tau_syn_ex and tau_syn_in's places hold the rise times
enum BetaVar {
  tau_rise_ex = tau_syn_ex,
  tau_rise_in = tau_syn_in,
  tau_decay_ex = n_common,
  tau_decay_in,
  dg_ex,
  dg_in,
  t_ref_remaining
};
constexpr int W = ode::lanes;

class IafCondBeta final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 5> state = {V_m, dg_ex, g_ex, dg_in, g_in};
  static constexpr int I_stim = iaf_cond::I_stim, integration_step = iaf_cond::integration_step;

  struct System {
    static constexpr int n = 5;
    Membrane m;
    double rise_ex[W], decay_ex[W], rise_in[W], decay_in[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      m.load(g, i, l, i_stim);
      rise_ex[l] = g.vars[tau_rise_ex][i], decay_ex[l] = g.vars[tau_decay_ex][i];
      rise_in[l] = g.vars[tau_rise_in][i], decay_in[l] = g.vars[tau_decay_in][i];
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        f[l] = m.dV(l, y[l], y[2 * W + l], y[4 * W + l]);
        f[W + l] = -y[W + l] / decay_ex[l];
        f[2 * W + l] = y[W + l] - y[2 * W + l] / rise_ex[l];
        f[3 * W + l] = -y[3 * W + l] / decay_in[l];
        f[4 * W + l] = y[3 * W + l] - y[4 * W + l] / rise_in[l];
      }
    }
  };

  const char* name() const override { return "iaf_cond_beta"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "t_ref_remaining"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v[tau_rise_ex] = {"tau_rise_ex", 0.2, "ms"};
      v[tau_rise_in] = {"tau_rise_in", 2.0, "ms"};
      v.push_back({"tau_decay_ex", 0.2, "ms"});
      v.push_back({"tau_decay_in", 2.0, "ms"});
      v.push_back({"dg_ex", 0.0, "nS/ms"});
      v.push_back({"dg_in", 0.0, "nS/ms"});
      v.push_back({"t_ref_remaining", 0.0, "ms"});  // a recordable
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    for (const int k : {int(tau_rise_ex), int(tau_decay_ex), int(tau_rise_in), int(tau_decay_in), int(tau_minus)})
      if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name, v(k), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondBeta>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    threshold(g, i, y[l], ctx, lag);
    g.vars[t_ref_remaining][i] = g.counters[i] * ctx.h;
    // the step's input after the threshold check (NEST's order)
    if (input.excitatory != 0.0) y[W + l] += input.excitatory * beta_peak_factor(sys.rise_ex[l], sys.decay_ex[l]);
    if (input.inhibitory != 0.0) y[3 * W + l] -= input.inhibitory * beta_peak_factor(sys.rise_in[l], sys.decay_in[l]);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafCondBeta);

}  // namespace ranvier
