// The conductance-based neuron of Casti et al. (2008) (NEST's iaf_chxk_2008): alpha-shaped
// excitatory, inhibitory and after-hyperpolarization (AHP) conductances, integrated with the
// adaptive RKF45 solver at NEST's tolerance. No reset and no refractoriness: the cell fires where
// V_m crosses V_th from below, at the time linear interpolation over the step finds (sent as the
// spike's offset, as NEST's precise spike time), and the AHP conductance starts there, its
// alpha function evolved to the step's end. With ahp_bug (Casti et al.'s Fortran code) a spike's
// AHP replaces the earlier ones instead of adding to them. Spikes of weight > 0 are excitatory,
// the others inhibitory (1 nS peak per unit weight, tau_syn after arrival).
#include <cmath>

#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  V_th,
  g_L,
  C_m,
  E_ex,
  E_in,
  E_L,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  tau_ahp,
  g_ahp,
  E_ahp,
  ahp_bug,
  tau_minus,
  tau_minus_triplet,
  dg_ex,
  g_ex,
  dg_in,
  g_in,
  dg_ahp,
  g_ahp_state,  // NEST's recordable g_ahp (the parameter g_ahp is the AHP's peak)
  I_syn_ex,     // recordables: the currents at the end of the step
  I_syn_in,
  I_ahp,
  I_stim,
  integration_step
};
constexpr int W = ode::lanes;

class IafChxk2008 final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 7> state = {V_m, dg_ex, g_ex, dg_in, g_in, dg_ahp, g_ahp_state};
  static constexpr int I_stim = ranvier::I_stim, integration_step = ranvier::integration_step;

  struct System {
    static constexpr int n = 7;
    double g_L[W], C_m[W], E_ex[W], E_in[W], E_L[W], E_ahp[W], I_stim[W], I_e[W], tau_ex[W], tau_in[W], tau_ahp[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      g_L[l] = v(Var::g_L), C_m[l] = v(Var::C_m), E_ex[l] = v(Var::E_ex), E_in[l] = v(Var::E_in);
      E_L[l] = v(Var::E_L), E_ahp[l] = v(Var::E_ahp), I_stim[l] = i_stim, I_e[l] = v(Var::I_e);
      tau_ex[l] = v(tau_syn_ex), tau_in[l] = v(tau_syn_in), tau_ahp[l] = v(Var::tau_ahp);
    }
    // NEST's right-hand side, in its order of operations
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double v = y[l];
        const double exc = y[2 * W + l] * (v - E_ex[l]), inh = y[4 * W + l] * (v - E_in[l]);
        const double ahp = y[6 * W + l] * (v - E_ahp[l]), leak = g_L[l] * (v - E_L[l]);
        f[l] = (-leak - exc - inh - ahp + I_stim[l] + I_e[l]) / C_m[l];
        f[W + l] = -y[W + l] / tau_ex[l];
        f[2 * W + l] = y[W + l] - (y[2 * W + l] / tau_ex[l]);
        f[3 * W + l] = -y[3 * W + l] / tau_in[l];
        f[4 * W + l] = y[3 * W + l] - (y[4 * W + l] / tau_in[l]);
        f[5 * W + l] = -y[5 * W + l] / tau_ahp[l];
        f[6 * W + l] = y[5 * W + l] - (y[6 * W + l] / tau_ahp[l]);
      }
    }
  };

  const char* name() const override { return "iaf_chxk_2008"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "g_ahp", "I_syn_ex", "I_syn_in", "I_ahp"};
  }
  int recordable(const CellKind* kind, const std::string& name) const override {
    return NeuronModel::recordable(kind, name == "g_ahp" ? "g_ahp_state" : name);
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", -60.0, "mV"},           {"V_th", -45.0, "mV"},
                                               {"g_L", 100.0, "nS"},           {"C_m", 1000.0, "pF"},
                                               {"E_ex", 20.0, "mV"},           {"E_in", -90.0, "mV"},
                                               {"E_L", -60.0, "mV"},           {"tau_syn_ex", 1.0, "ms"},
                                               {"tau_syn_in", 1.0, "ms"},      {"I_e", 0.0, "pA"},
                                               {"tau_ahp", 0.5, "ms"},         {"g_ahp", 443.8, "nS"},
                                               {"E_ahp", -95.0, "mV"},         {"ahp_bug", 0.0, "", true},
                                               {"tau_minus", 20.0, "ms"},      {"tau_minus_triplet", 110.0, "ms"},
                                               {"dg_ex", 0.0, "nS/ms"},        {"g_ex", 0.0, "nS"},
                                               {"dg_in", 0.0, "nS/ms"},        {"g_in", 0.0, "nS"},
                                               {"dg_ahp", 0.0, "nS/ms"},       {"g_ahp_state", 0.0, "nS"},
                                               {"I_syn_ex", 0.0, "pA"},        {"I_syn_in", 0.0, "pA"},
                                               {"I_ahp", 0.0, "pA"},           {"I_stim", 0.0, "pA"},
                                               {"integration_step", 0.0, "ms"}};
    return vars;
  }
  bool precise_spike_times() const override { return true; }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[C_m][i] > 0)) throw bad_value("C_m", g.vars[C_m][i], "> 0 (capacitance must be strictly positive)");
    for (const Var tau : {tau_syn_ex, tau_syn_in, tau_ahp})
      if (!(g.vars[tau][i] > 0)) throw bad_value(variables()[tau].name, g.vars[tau][i], "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafChxk2008>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double v_before) {
    auto& [g, i, l, y, ctx, lag] = at;
    const double v = y[l], th = g.vars[V_th][i];
    if (v_before < th && v >= th) {
      const double dt = ctx.h * (v - th) / (v - v_before);  // from the crossing to the step's end
      const double delta_dg = g.vars[g_ahp][i] * M_E / sys.tau_ahp[l] * std::exp(-dt / sys.tau_ahp[l]);
      const double delta_g = delta_dg * dt;
      const bool replaces = g.vars[ahp_bug][i] != 0.0;
      y[6 * W + l] = replaces ? delta_g : y[6 * W + l] + delta_g;
      y[5 * W + l] = replaces ? delta_dg : y[5 * W + l] + delta_dg;
      ctx.spike(g, i, lag, dt);
    }
    y[W + l] += input.excitatory * (1.0 * M_E / sys.tau_ex[l]);
    y[3 * W + l] += -input.inhibitory * (1.0 * M_E / sys.tau_in[l]);
    g.vars[I_syn_ex][i] = y[2 * W + l] * (v - sys.E_ex[l]);
    g.vars[I_syn_in][i] = y[4 * W + l] * (v - sys.E_in[l]);
    g.vars[I_ahp][i] = y[6 * W + l] * (v - sys.E_ahp[l]);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafChxk2008);

}  // namespace ranvier
