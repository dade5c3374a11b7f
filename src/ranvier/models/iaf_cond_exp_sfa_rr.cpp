// iaf_cond_exp with spike-frequency adaptation and relative refractoriness (NEST's
// iaf_cond_exp_sfa_rr; Dayan and Abbott 2001): two more conductances, g_sfa towards E_sfa and
// g_rr towards E_rr, decay with tau_sfa and tau_rr and step by q_sfa and q_rr at each spike.
// Integrated with the adaptive RKF45 solver at NEST's tolerance, as iaf_cond_exp.
#include "models/iaf_cond_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

using namespace iaf_cond;
constexpr int W = ode::lanes;

enum Own { tau_sfa = n_common, tau_rr, E_sfa, E_rr, q_sfa, q_rr, g_sfa, g_rr };

// NEST's defaults for this model, then its own variables.
std::vector<Variable> variables_with_defaults() {
  std::vector<Variable> vars = common_variables();
  for (auto [k, value] : {std::pair{V_th, -57.0},
                          {V_reset, -70.0},
                          {t_ref, 0.5},
                          {g_L, 28.95},
                          {C_m, 289.5},
                          {E_in, -75.0},
                          {tau_syn_ex, 1.5},
                          {tau_syn_in, 10.0}})
    vars[size_t(k)].default_value = value;
  vars.insert(vars.end(), {{"tau_sfa", 110.0, "ms"},
                           {"tau_rr", 1.97, "ms"},
                           {"E_sfa", -70.0, "mV"},
                           {"E_rr", -70.0, "mV"},
                           {"q_sfa", 14.48, "nS"},
                           {"q_rr", 3214.0, "nS"},
                           {"g_sfa", 0.0, "nS"},
                           {"g_rr", 0.0, "nS"}});
  return vars;
}

class IafCondExpSfaRr final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 5> state = {V_m, g_ex, g_in, g_sfa, g_rr};
  static constexpr int I_stim = iaf_cond::I_stim, integration_step = iaf_cond::integration_step;

  struct System {
    static constexpr int n = 5;
    Membrane m;
    double tau_ex[W], tau_in[W], tau_a[W], tau_r[W], E_a[W], E_r[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      m.load(g, i, l, i_stim);
      tau_ex[l] = g.vars[tau_syn_ex][i], tau_in[l] = g.vars[tau_syn_in][i];
      tau_a[l] = g.vars[tau_sfa][i], tau_r[l] = g.vars[tau_rr][i];
      E_a[l] = g.vars[E_sfa][i], E_r[l] = g.vars[E_rr][i];
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double V = m.V(l, y[l]);
        f[l] = m.dV(l, y[l], y[W + l], y[2 * W + l], y[3 * W + l] * (V - E_a[l]) + y[4 * W + l] * (V - E_r[l]));
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = -y[2 * W + l] / tau_in[l];
        f[3 * W + l] = -y[3 * W + l] / tau_a[l];
        f[4 * W + l] = -y[4 * W + l] / tau_r[l];
      }
    }
  };

  const char* name() const override { return "iaf_cond_exp_sfa_rr"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "g_sfa", "g_rr"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = variables_with_defaults();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    validate_common(g, i);
    if (!(g.vars[tau_sfa][i] > 0)) throw bad_value("tau_sfa", g.vars[tau_sfa][i], "> 0");
    if (!(g.vars[tau_rr][i] > 0)) throw bad_value("tau_rr", g.vars[tau_rr][i], "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondExpSfaRr>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System&, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    if (take_input_and_fire(at, input)) {  // a spike steps both adaptations
      y[3 * W + l] += g.vars[q_sfa][i];
      y[4 * W + l] += g.vars[q_rr][i];
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafCondExpSfaRr);

}  // namespace ranvier
