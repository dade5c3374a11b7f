// Adaptive exponential integrate-and-fire neuron with alpha-shaped synaptic conductances
// (NEST's aeif_cond_alpha), integrated with the adaptive RKF45 solver at NEST's tolerance
// (gsl_error_tol, absolute and relative to h dy/dt). A spike of weight w makes the
// conductance peak at w nS, tau_syn after its arrival.
#include <cmath>

#include "models/aeif_common.hpp"

namespace ranvier {
namespace {

using namespace aeif;
enum AlphaVar { dg_ex = n_common, dg_in };

class AeifCondAlpha final : public NeuronModel {
 public:
  static constexpr std::array<int, 6> state = {V_m, dg_ex, g_ex, dg_in, g_in, w};
  static constexpr int I_stim = aeif::I_stim, integration_step = aeif::integration_step;

  struct System {
    static constexpr int n = 6;
    Membrane m;
    double tau_ex, tau_in;
    void derivatives(const double* y, double* f) const {
      m.derivatives(y[0], y[2], y[4], y[5], f[0], f[5]);
      f[1] = -y[1] / tau_ex;
      f[2] = y[1] - y[2] / tau_ex;
      f[3] = -y[3] / tau_in;
      f[4] = y[3] - y[4] / tau_in;
    }
  };

  const char* name() const override { return "aeif_cond_alpha"; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"dg_ex", 0.0});
      v.push_back({"dg_in", 0.0});
      return v;
    }();
    return vars;
  }
  int tau_minus_index() const override { return tau_minus; }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override {
    ode_neuron::start_steps(g, integration_step, std::min(0.01, h));
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifCondAlpha>(g, ctx); }

  static void advance(NeuronGroup& g, size_t i, double* y, double i_stim, ode_neuron::Input input, double& step,
                      UpdateContext& ctx, int lag) {
    const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
    const System sys{membrane(g, i, i_stim), te, ti};
    integrate_and_fire(g, i, sys, y, 5, step, ctx, lag);
    y[1] += input.excitatory * M_E / te;
    y[3] -= input.inhibitory * M_E / ti;
  }
};

}  // namespace

const NeuronModel& aeif_cond_alpha_model() {
  static const AeifCondAlpha model;
  return model;
}

}  // namespace ranvier
