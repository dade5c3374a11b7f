// NEST's iaf_cond_alpha_mc: three passive compartments in a row (soma, proximal, distal
// dendrite), coupled by g_sp and g_pd, each with alpha-shaped excitatory and inhibitory
// conductances, its own leak, capacitance, I_e and current input; the soma fires and is held
// at V_reset while refractory, as iaf_cond_alpha's membrane. Integrated with the adaptive RKF45
// solver at NEST's tolerance. Spikes enter at receptor_types 1..6 (soma_exc ... distal_inh: the
// weight, of either sign, joins that conductance), currents at 7..9 (soma_curr ...). A
// compartment's variables carry its suffix (g_L.s, V_m.p, ...): Python shows them as NEST's
// per-compartment dicts ("soma": {"g_L": ...}), the recordables under NEST's names (V_m.s).
#include <cmath>

#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

constexpr int n_comp = 3;  // soma, proximal, distal
// A compartment's variables, in this order: compartment c's from c * per_comp, the globals after
// all three.
enum CompVar {
  V_m,
  dg_ex,
  g_ex,
  dg_in,
  g_in,
  g_L,
  C_m,
  E_ex,
  E_in,
  E_L,
  tau_syn_ex,
  tau_syn_in,
  I_e,
  I_stim,
  per_comp
};
enum GlobalVar {
  V_th = n_comp * per_comp,
  V_reset,
  t_ref,
  g_sp,
  g_pd,
  tau_minus,
  tau_minus_triplet,
  t_ref_remaining,
  integration_step
};
constexpr int var(int c, CompVar v) { return c * per_comp + v; }
constexpr const char* suffix[n_comp] = {"s", "p", "d"};
constexpr int W = ode::lanes;

class IafCondAlphaMc final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr int n_state = 5;  // V_m, dg_ex, g_ex, dg_in, g_in per compartment
  static constexpr std::array<int, n_comp * n_state> state = {
      var(0, V_m), var(0, dg_ex), var(0, g_ex), var(0, dg_in), var(0, g_in),  // soma
      var(1, V_m), var(1, dg_ex), var(1, g_ex), var(1, dg_in), var(1, g_in),  // proximal
      var(2, V_m), var(2, dg_ex), var(2, g_ex), var(2, dg_in), var(2, g_in)};
  // The framework feeds port 0's current (soma_curr) to the soma; the model takes the others.
  static constexpr int I_stim = var(0, CompVar::I_stim), integration_step = GlobalVar::integration_step;

  struct System {
    static constexpr int n = n_comp * n_state;
    double g_L[n_comp][W], C_m[n_comp][W], E_ex[n_comp][W], E_in[n_comp][W], E_L[n_comp][W];
    double tau_ex[n_comp][W], tau_in[n_comp][W], I[n_comp][W], I_e[n_comp][W];
    double V_th[W], V_reset[W], g_sp[W], g_pd[W];
    int32_t refractory[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      for (int c = 0; c < n_comp; ++c) {
        g_L[c][l] = v(var(c, CompVar::g_L)), C_m[c][l] = v(var(c, CompVar::C_m)), E_ex[c][l] = v(var(c, CompVar::E_ex));
        E_in[c][l] = v(var(c, CompVar::E_in)), E_L[c][l] = v(var(c, CompVar::E_L));
        tau_ex[c][l] = v(var(c, tau_syn_ex)), tau_in[c][l] = v(var(c, tau_syn_in));
        I[c][l] = c == 0 ? i_stim : v(var(c, CompVar::I_stim)), I_e[c][l] = v(var(c, CompVar::I_e));
      }
      V_th[l] = v(GlobalVar::V_th), V_reset[l] = v(GlobalVar::V_reset), g_sp[l] = v(GlobalVar::g_sp);
      g_pd[l] = v(GlobalVar::g_pd), refractory[l] = g.counters[i];
    }
    // NEST's right-hand side in its order of operations: the soma sees V_reset while
    // refractory and at most V_th otherwise; its neighbour sees its integrated potential. While
    // the soma is refractory no compartment's potential changes (NEST 3.10 keeps its refractory
    // flag for the dendrites too; run, not read: their V_m stays as the soma fired).
    void derivatives(const double* y, double* f) const {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const double ys = y[l], yp = y[n_state * W + l], yd = y[2 * n_state * W + l];
        const bool held = refractory[l] > 0;
        const double V[n_comp] = {held ? V_reset[l] : (ys < V_th[l] ? ys : V_th[l]), yp, yd};
        const double I_conn[n_comp] = {g_sp[l] * (V[0] - yp), g_sp[l] * (yp - ys) + g_pd[l] * (yp - yd),
                                       g_pd[l] * (yd - yp)};
        for (int c = 0; c < n_comp; ++c) {
          const double* s = y + c * n_state * W;
          double* d = f + c * n_state * W;
          const double exc = s[2 * W + l] * (V[c] - E_ex[c][l]), inh = s[4 * W + l] * (V[c] - E_in[c][l]);
          const double leak = g_L[c][l] * (V[c] - E_L[c][l]);
          d[l] = held ? 0.0 : (-leak - exc - inh - I_conn[c] + I[c][l] + I_e[c][l]) / C_m[c][l];
          d[W + l] = -s[W + l] / tau_ex[c][l];
          d[2 * W + l] = s[W + l] - s[2 * W + l] / tau_ex[c][l];
          d[3 * W + l] = -s[3 * W + l] / tau_in[c][l];
          d[4 * W + l] = s[3 * W + l] - s[4 * W + l] / tau_in[c][l];
        }
      }
    }
  };

  const char* name() const override { return "iaf_cond_alpha_mc"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m.s",  "g_ex.s", "g_in.s", "V_m.p",  "g_ex.p",
                                    "g_in.p", "V_m.d",  "g_ex.d", "g_in.d", "t_ref_remaining"};
  }
  std::vector<std::pair<std::string, std::string>> compartments() const override {
    return {{"soma", suffix[0]}, {"proximal", suffix[1]}, {"distal", suffix[2]}};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v;
      const double g_L_of[n_comp] = {10.0, 5.0, 10.0}, C_m_of[n_comp] = {150.0, 75.0, 150.0};
      for (int c = 0; c < n_comp; ++c) {
        const std::string s = std::string(".") + suffix[c];
        for (const Variable& x : std::vector<Variable>{{"V_m", -70.0, "mV"},
                                                       {"dg_ex", 0.0, "nS/ms"},
                                                       {"g_ex", 0.0, "nS"},
                                                       {"dg_in", 0.0, "nS/ms"},
                                                       {"g_in", 0.0, "nS"},
                                                       {"g_L", g_L_of[c], "nS"},
                                                       {"C_m", C_m_of[c], "pF"},
                                                       {"E_ex", 0.0, "mV"},
                                                       {"E_in", -85.0, "mV"},
                                                       {"E_L", -70.0, "mV"},
                                                       {"tau_syn_ex", 0.5, "ms"},
                                                       {"tau_syn_in", 2.0, "ms"},
                                                       {"I_e", 0.0, "pA"},
                                                       {"I_stim", 0.0, "pA"}})
          v.push_back({x.name + s, x.default_value, x.unit});
      }
      for (const Variable& x : std::vector<Variable>{{"V_th", -55.0, "mV"},
                                                     {"V_reset", -60.0, "mV"},
                                                     {"t_ref", 2.0, "ms"},
                                                     {"g_sp", 2.5, "nS"},
                                                     {"g_pd", 1.0, "nS"},
                                                     {"tau_minus", 20.0, "ms"},
                                                     {"tau_minus_triplet", 110.0, "ms"},
                                                     {"t_ref_remaining", 0.0, "ms"},
                                                     {"integration_step", 0.0, "ms"}})
        v.push_back(x);
      return v;
    }();
    return vars;
  }
  std::vector<std::pair<std::string, uint32_t>> receptor_types() const override {
    return {{"soma_exc", 1},   {"soma_inh", 2},  {"proximal_exc", 3},  {"proximal_inh", 4}, {"distal_exc", 5},
            {"distal_inh", 6}, {"soma_curr", 7}, {"proximal_curr", 8}, {"distal_curr", 9}};
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 2 * n_comp;
  }
  // Spikes at receptor_type 1..6 (ports 0..5), currents at 7..9 (ports 0..2), as NEST numbers them.
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) {
      if (receptor < 7 || receptor > 9)
        throw bad_value("receptor_type", receptor,
                        "7..9 for currents into iaf_cond_alpha_mc (soma_curr, proximal_curr, distal_curr)");
      return receptor - 7;
    }
    if (receptor < 1 || receptor > 6)
      throw bad_value("receptor_type", receptor, "1..6 for spikes into iaf_cond_alpha_mc (see its receptor_types)");
    return receptor - 1;
  }
  uint32_t receptor(uint32_t port) const override { return port + 1; }
  uint32_t current_receptor(uint32_t port) const override { return port + 7; }

  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(GlobalVar::V_reset) < v(GlobalVar::V_th)))
      throw bad_value("V_reset", v(GlobalVar::V_reset), "< V_th (reset potential must be smaller than threshold)");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0 (refractory time cannot be negative)");
    for (int c = 0; c < n_comp; ++c)
      for (const int k : {var(c, CompVar::C_m), var(c, tau_syn_ex), var(c, tau_syn_in)})
        if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name, v(k), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<IafCondAlphaMc>(g, ctx); }

  // NEST's order at a step's end: each receptor's spikes join its conductance, then the soma's
  // refractoriness or threshold, then the currents that arrived drive the next step.
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    const InputRow row = ctx.row(lag);
    for (int c = 0; c < n_comp; ++c) {
      double* s = y + c * n_state * W;
      double weight[2];  // the summed weights at the compartment's exc and inh receptors
      for (int k = 0; k < 2; ++k) {
        const uint32_t port = uint32_t(2 * c + k);
        if (port == 0) {
          weight[k] = input.excitatory + input.inhibitory;
          continue;
        }
        const uint32_t column = g.input(i, port);
        weight[k] = row.excitatory[column] + row.inhibitory[column];
        row.excitatory[column] = row.inhibitory[column] = 0.0;
      }
      s[W + l] += weight[0] * (1.0 * M_E / sys.tau_ex[c][l]);
      s[3 * W + l] += weight[1] * (1.0 * M_E / sys.tau_in[c][l]);
    }
    int32_t& r = g.counters[i];
    if (r > 0) {
      --r;
      y[l] = sys.V_reset[l];
    } else if (y[l] >= sys.V_th[l]) {
      r = ctx.steps(g.vars[t_ref][i]);
      y[l] = sys.V_reset[l];
      ctx.spike(g, i, lag);
    }
    g.vars[t_ref_remaining][i] = r * ctx.h;
    for (int c = 1; c < n_comp; ++c) {
      const uint32_t column = g.input(i, uint32_t(c));
      g.vars[var(c, CompVar::I_stim)][i] = row.current[column];
      row.current[column] = 0.0;
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafCondAlphaMc);

}  // namespace ranvier
