// Leaky integrate-and-fire neuron with exponentially decaying synaptic conductances
// (NEST's iaf_cond_exp), integrated with the adaptive RKF45 solver at NEST's tolerance
// (absolute 1e-3 on every state variable).
#include "models/iaf_cond_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

using namespace iaf_cond;

class IafCondExp final : public NeuronModel {
 public:
  static constexpr std::array<int, 3> state = {V_m, g_ex, g_in};
  static constexpr int I_stim = iaf_cond::I_stim, integration_step = iaf_cond::integration_step;

  struct System {
    static constexpr int n = 3;
    Membrane m;
    double tau_ex, tau_in;
    void derivatives(const double* y, double* f) const {
      f[0] = m.dV(y[0], y[1], y[2]);
      f[1] = -y[1] / tau_ex;
      f[2] = -y[2] / tau_in;
    }
  };

  const char* name() const override { return "iaf_cond_exp"; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = common_variables();
    return vars;
  }
  int tau_minus_index() const override { return tau_minus; }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondExp>(g, ctx); }

  static void advance(NeuronGroup& g, size_t i, double* y, double i_stim, ode_neuron::Input input, double& step,
                      UpdateContext& ctx, int lag) {
    const System sys{membrane(g, i, i_stim), g.vars[tau_syn_ex][i], g.vars[tau_syn_in][i]};
    ode::integrate(sys, y, ctx.h, step, ode::on_values(1e-3, 0.0));
    // This model takes the step's input before the threshold check (NEST's order).
    y[1] += input.excitatory;
    y[2] -= input.inhibitory;
    threshold(g, i, y[0], ctx, lag);
  }
};

}  // namespace

const NeuronModel& iaf_cond_exp_model() {
  static const IafCondExp model;
  return model;
}

}  // namespace ranvier
