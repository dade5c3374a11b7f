// Adaptive exponential integrate-and-fire neuron with exponentially decaying synaptic
// conductances (NEST's aeif_cond_exp), integrated with the adaptive RKF45 solver at NEST's
// tolerance (gsl_error_tol, absolute and relative to h dy/dt).
#include "models/aeif_common.hpp"

namespace ranvier {
namespace {

using namespace aeif;

class AeifCondExp final : public NeuronModel {
 public:
  static constexpr std::array<int, 4> state = {V_m, g_ex, g_in, w};
  static constexpr int I_stim = aeif::I_stim, integration_step = aeif::integration_step;

  struct System {
    static constexpr int n = 4;
    Membrane m;
    double tau_ex, tau_in;
    void derivatives(const double* y, double* f) const {
      m.derivatives(y[0], y[1], y[2], y[3], f[0], f[3]);
      f[1] = -y[1] / tau_ex;
      f[2] = -y[2] / tau_in;
    }
  };

  const char* name() const override { return "aeif_cond_exp"; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = common_variables();
    return vars;
  }
  int tau_minus_index() const override { return tau_minus; }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override {
    ode_neuron::start_steps(g, integration_step, std::min(0.01, h));
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifCondExp>(g, ctx); }

  static void advance(NeuronGroup& g, size_t i, double* y, double i_stim, ode_neuron::Input input, double& step,
                      UpdateContext& ctx, int lag) {
    const System sys{membrane(g, i, i_stim), g.vars[tau_syn_ex][i], g.vars[tau_syn_in][i]};
    integrate_and_fire(g, i, sys, y, 3, step, ctx, lag);
    y[1] += input.excitatory;
    y[2] -= input.inhibitory;
  }
};

}  // namespace

const NeuronModel& aeif_cond_exp_model() {
  static const AeifCondExp model;
  return model;
}

}  // namespace ranvier
