// Adaptive exponential integrate-and-fire neuron with alpha-shaped synaptic conductances
// (NEST's aeif_cond_alpha), integrated with the adaptive RKF45 solver at NEST's tolerance
// (gsl_error_tol, absolute and relative to h dy/dt). A spike of weight w makes the
// conductance peak at w nS, tau_syn after its arrival.
#pragma once
#include <cmath>

#include "models/aeif_common.hpp"

namespace ranvier::aeif {

enum AlphaVar { dg_ex = n_common, dg_in, n_alpha };

// Not final: aeif_cond_alpha_astro is this model with an astrocyte's slow inward current.
class AeifCondAlpha : public NeuronModel, public Rules<5> {
 public:
  static constexpr std::array<int, 6> state = {V_m, dg_ex, g_ex, dg_in, g_in, w};
  static constexpr int I_stim = aeif::I_stim, integration_step = aeif::integration_step;

  struct System {
    static constexpr int n = 6, W = ode::lanes;
    Membrane<> m;
    ExIn syn;
    double tau_ex[W], tau_in[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim, double i_sic = 0.0) {
      m.load(g, i, l, i_stim, i_sic);
      syn.load(g, i, l);
      tau_ex[l] = g.vars[tau_syn_ex][i];
      tau_in[l] = g.vars[tau_syn_in][i];
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        m.derivatives(l, y[l], y[5 * W + l], syn.terms(l, y[2 * W + l], y[4 * W + l]), f[l], f[5 * W + l]);
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = y[W + l] - y[2 * W + l] / tau_ex[l];
        f[3 * W + l] = -y[3 * W + l] / tau_in[l];
        f[4 * W + l] = y[3 * W + l] - y[4 * W + l] / tau_in[l];
      }
    }
  };

  const char* name() const override { return "aeif_cond_alpha"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "w"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"dg_ex", 0.0, "nS/ms"});
      v.push_back({"dg_in", 0.0, "nS/ms"});
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifCondAlpha>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    NeuronGroup& g = at.g;
    const size_t i = at.i;
    const int l = at.l;
    double* y = at.y;
    constexpr int W = ode::lanes;
    count_down(g, i, sys, l);
    y[W + l] += input.excitatory * (M_E / sys.tau_ex[l]);
    y[3 * W + l] -= input.inhibitory * (M_E / sys.tau_in[l]);
  }
};

}  // namespace ranvier::aeif
