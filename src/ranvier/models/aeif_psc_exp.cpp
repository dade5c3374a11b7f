// Adaptive exponential integrate-and-fire neuron with exponentially decaying synaptic currents
// (NEST's aeif_psc_exp; models/aeif_psc.hpp), integrated with the adaptive RKF45 solver at
// NEST's tolerance. A spike of weight w adds |w| pA to the current of its sign.
#include "models/aeif_psc.hpp"

namespace ranvier {
namespace {

using namespace aeif_psc;

class AeifPscExp final : public NeuronModel, public aeif::Rules<3, layout> {
 public:
  static constexpr std::array<int, 4> state = {V_m, I_syn_ex, I_syn_in, w};
  static constexpr int I_stim = aeif_psc::I_stim, integration_step = aeif_psc::integration_step;

  struct System {
    static constexpr int n = 4, W = ode::lanes;
    aeif::Membrane<layout> m;
    double tau_ex[W], tau_in[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      m.load(g, i, l, i_stim);
      tau_ex[l] = g.vars[tau_syn_ex][i];
      tau_in[l] = g.vars[tau_syn_in][i];
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        m.derivatives(l, y[l], y[3 * W + l], currents(y[W + l], y[2 * W + l]), f[l], f[3 * W + l]);
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = -y[2 * W + l] / tau_in[l];
      }
    }
  };

  const char* name() const override { return "aeif_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "I_syn_ex", "I_syn_in", "w"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = common_variables();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifPscExp>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    constexpr int W = ode::lanes;
    count_down(at.g, at.i, sys, at.l);
    at.y[W + at.l] += input.excitatory;
    at.y[2 * W + at.l] -= input.inhibitory;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifPscExp);

}  // namespace ranvier
