// Adaptive exponential integrate-and-fire neuron with exponentially decaying synaptic
// conductances (NEST's aeif_cond_exp), integrated with the adaptive RKF45 solver at NEST's
// tolerance (gsl_error_tol, absolute and relative to h dy/dt).
#include "models/aeif_common.hpp"

namespace ranvier {
namespace {

using namespace aeif;

class AeifCondExp final : public NeuronModel, public Rules<3> {
 public:
  static constexpr std::array<int, 4> state = {V_m, g_ex, g_in, w};
  static constexpr int I_stim = aeif::I_stim, integration_step = aeif::integration_step;

  struct System {
    static constexpr int n = 4, W = ode::lanes;
    Membrane<> m;
    ExIn syn;
    double tau_ex[W], tau_in[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      m.load(g, i, l, i_stim);
      syn.load(g, i, l);
      tau_ex[l] = g.vars[tau_syn_ex][i];
      tau_in[l] = g.vars[tau_syn_in][i];
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        m.derivatives(l, y[l], y[3 * W + l], syn.terms(l, y[W + l], y[2 * W + l]), f[l], f[3 * W + l]);
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = -y[2 * W + l] / tau_in[l];
      }
    }
  };

  const char* name() const override { return "aeif_cond_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "w"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = common_variables();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifCondExp>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    NeuronGroup& g = at.g;
    const size_t i = at.i;
    const int l = at.l;
    double* y = at.y;
    constexpr int W = ode::lanes;
    count_down(g, i, sys, l);
    y[W + l] += input.excitatory;
    y[2 * W + l] -= input.inhibitory;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifCondExp);

}  // namespace ranvier
