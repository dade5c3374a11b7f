// Leaky integrate-and-fire neuron with exponentially decaying synaptic conductances
// (NEST's iaf_cond_exp), integrated with the adaptive RKF45 solver at NEST's tolerance
// (absolute 1e-3 on every state variable).
#include "models/iaf_cond_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

using namespace iaf_cond;
constexpr int W = ode::lanes;

class IafCondExp final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 3> state = {V_m, g_ex, g_in};
  static constexpr int I_stim = iaf_cond::I_stim, integration_step = iaf_cond::integration_step;

  struct System {
    static constexpr int n = 3;
    Membrane m;
    double tau_ex[W], tau_in[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      m.load(g, i, l, i_stim);
      tau_ex[l] = g.vars[tau_syn_ex][i];
      tau_in[l] = g.vars[tau_syn_in][i];
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        f[l] = m.dV(l, y[l], y[W + l], y[2 * W + l]);
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = -y[2 * W + l] / tau_in[l];
      }
    }
  };

  const char* name() const override { return "iaf_cond_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = common_variables();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondExp>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System&, ode_neuron::Input input, double) {
    take_input_and_fire(at, input);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafCondExp);

}  // namespace ranvier
