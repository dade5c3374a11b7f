// Adaptive exponential integrate-and-fire neuron whose input spikes make V_m jump by their
// weight in mV (NEST's aeif_psc_delta), integrated with the adaptive RKF45 solver at NEST's
// tolerance. As NEST does, a step's input is added after the solver's first accepted step in
// it, before the threshold is checked; while refractory it is lost, or with refractory_input
// kept (each decayed by exp(-steps left h / tau_m), tau_m = C_m / g_L) and added at the end.
#include <cmath>

#include "models/aeif_common.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_L,
  C_m,
  g_L,
  t_ref,
  V_th,
  V_peak,
  V_reset,
  a,
  b,
  Delta_T,
  tau_w,
  I_e,
  gsl_error_tol,
  tau_minus,
  tau_minus_triplet,
  refractory_input,
  refractory_spikes,
  w,
  I_stim,
  integration_step
};
constexpr aeif::Layout layout{E_L, C_m, g_L,     t_ref, V_th, V_peak,        V_reset,
                              a,   b,   Delta_T, tau_w, I_e,  gsl_error_tol, tau_minus};

class AeifPscDelta final : public NeuronModel, public aeif::Rules<1, layout> {
 public:
  static constexpr std::array<int, 2> state = {V_m, w};
  static constexpr int I_stim = Var::I_stim, integration_step = Var::integration_step;

  struct System {
    static constexpr int n = 2, W = ode::lanes;
    aeif::Membrane<layout> m;
    bool taken[W];  // the step's input has been added
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      m.load(g, i, l, i_stim);
      taken[l] = false;
    }
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) m.derivatives(l, y[l], y[W + l], [](double, double x) { return x; }, f[l], f[W + l]);
    }
  };

  const char* name() const override { return "aeif_psc_delta"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"V_m", "w"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", -70.6, "mV"},
        {"E_L", -70.6, "mV"},
        {"C_m", 281.0, "pF"},
        {"g_L", 30.0, "nS"},
        {"t_ref", 0.0, "ms"},
        {"V_th", -50.4, "mV"},
        {"V_peak", 0.0, "mV"},
        {"V_reset", -60.0, "mV"},
        {"a", 4.0, "nS"},
        {"b", 80.5, "pA"},
        {"Delta_T", 2.0, "mV"},
        {"tau_w", 144.0, "ms"},
        {"I_e", 0.0, "pA"},
        {"gsl_error_tol", 1e-6, ""},
        {"tau_minus", 20.0, "ms"},
        {"tau_minus_triplet", 110.0, "ms"},
        {"refractory_input", 0.0, "", true},
        {"refractory_spikes", 0.0, "mV"},  // input held while refractory (with refractory_input)
        {"w", 0.0, "pA"},
        {"I_stim", 0.0, "pA"},
        {"integration_step", 0.0, "ms"}};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    aeif::validate_membrane<layout>(g, i);
    if (!(g.vars[g_L][i] > 0)) throw bad_value("g_L", g.vars[g_L][i], "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifPscDelta>(g, ctx); }

  // After each accepted solver step: NEST's bounds, then the step's input (after the first
  // one), then the threshold.
  template <class System>
  static void after_step(const ode_neuron::Lane& at, System& sys) {
    auto& [g, i, l, y, ctx, lag] = at;
    constexpr int W = ode::lanes;
    check_bounds(g, i, y[l], y[W + l], ctx, lag);
    double jump = 0.0;
    if (!sys.taken[l]) {
      const InputRow row = ctx.row(lag);
      const uint32_t column = g.first_input + uint32_t(i);
      jump = row.excitatory[column] + row.inhibitory[column];
      row.excitatory[column] = row.inhibitory[column] = 0.0;
      sys.taken[l] = true;
    }
    int32_t& r = sys.m.refractory[l];
    const bool keep = g.vars[refractory_input][i] != 0.0;
    double& held = g.vars[refractory_spikes][i];
    if (r == 0) {
      y[l] += jump;
      if (keep && held != 0.0) y[l] += held, held = 0.0;
    } else {
      y[l] = g.vars[V_reset][i];
      if (keep) held += jump * std::exp(-double(r) * ctx.h / (g.vars[C_m][i] / g.vars[g_L][i]));
    }
    const double v_spike = g.vars[Delta_T][i] > 0 ? g.vars[V_peak][i] : g.vars[V_th][i];
    if (r == 0 && y[l] >= v_spike) {
      y[l] = g.vars[V_reset][i];
      y[W + l] += g.vars[b][i];
      const int32_t steps = ctx.steps(g.vars[t_ref][i]);
      r = steps > 0 ? steps + 1 : 0;
      ctx.spike(g, i, lag);
    }
  }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input, double) {
    count_down(at.g, at.i, sys, at.l);  // the input was taken after the first solver step
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifPscDelta);

}  // namespace ranvier
