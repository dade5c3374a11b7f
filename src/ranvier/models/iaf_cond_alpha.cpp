// Leaky integrate-and-fire neuron with alpha-shaped synaptic conductances (NEST's
// iaf_cond_alpha), integrated with the adaptive RKF45 solver at NEST's tolerance (absolute
// 1e-3 on every state variable). A spike of weight w makes the conductance peak at w nS,
// tau_syn after its arrival.
#include <cmath>

#include "models/iaf_cond_common.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

using namespace iaf_cond;
enum AlphaVar { dg_ex = n_common, dg_in, t_ref_remaining };

class IafCondAlpha final : public NeuronModel {
 public:
  static constexpr std::array<int, 5> state = {V_m, dg_ex, g_ex, dg_in, g_in};
  static constexpr int I_stim = iaf_cond::I_stim, integration_step = iaf_cond::integration_step;

  struct System {
    static constexpr int n = 5;
    Membrane m;
    double tau_ex, tau_in;
    void derivatives(const double* y, double* f) const {
      f[0] = m.dV(y[0], y[2], y[4]);
      f[1] = -y[1] / tau_ex;
      f[2] = y[1] - y[2] / tau_ex;
      f[3] = -y[3] / tau_in;
      f[4] = y[3] - y[4] / tau_in;
    }
  };

  const char* name() const override { return "iaf_cond_alpha"; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"dg_ex", 0.0});
      v.push_back({"dg_in", 0.0});
      v.push_back({"t_ref_remaining", 0.0});  // ms, a recordable
      return v;
    }();
    return vars;
  }
  int tau_minus_index() const override { return tau_minus; }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondAlpha>(g, ctx); }

  static void advance(NeuronGroup& g, size_t i, double* y, double i_stim, ode_neuron::Input input, double& step,
                      UpdateContext& ctx, int lag) {
    const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
    const System sys{membrane(g, i, i_stim), te, ti};
    ode::integrate(sys, y, ctx.h, step, ode::on_values(1e-3, 0.0));
    threshold(g, i, y[0], ctx, lag);
    g.vars[t_ref_remaining][i] = g.counters[i] * ctx.h;
    // This model takes the step's input after the threshold check (NEST's order).
    y[1] += input.excitatory * M_E / te;
    y[3] -= input.inhibitory * M_E / ti;
  }
};

}  // namespace

const NeuronModel& iaf_cond_alpha_model() {
  static const IafCondAlpha model;
  return model;
}

}  // namespace ranvier
