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
constexpr int W = ode::lanes;

class IafCondAlpha final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 5> state = {V_m, dg_ex, g_ex, dg_in, g_in};
  static constexpr int I_stim = iaf_cond::I_stim, integration_step = iaf_cond::integration_step;

  struct System {
    static constexpr int n = 5;
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
        f[l] = m.dV(l, y[l], y[2 * W + l], y[4 * W + l]);
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = y[W + l] - y[2 * W + l] / tau_ex[l];
        f[3 * W + l] = -y[3 * W + l] / tau_in[l];
        f[4 * W + l] = y[3 * W + l] - y[4 * W + l] / tau_in[l];
      }
    }
  };

  const char* name() const override { return "iaf_cond_alpha"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "t_ref_remaining"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"dg_ex", 0.0, "nS/ms"});
      v.push_back({"dg_in", 0.0, "nS/ms"});
      v.push_back({"t_ref_remaining", 0.0, "ms"});  // a recordable
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondAlpha>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    threshold(g, i, y[l], ctx, lag);
    g.vars[t_ref_remaining][i] = g.counters[i] * ctx.h;
    // This model takes the step's input after the threshold check (NEST's order).
    y[W + l] += input.excitatory * (M_E / sys.tau_ex[l]);
    y[3 * W + l] -= input.inhibitory * (M_E / sys.tau_in[l]);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafCondAlpha);

}  // namespace ranvier
