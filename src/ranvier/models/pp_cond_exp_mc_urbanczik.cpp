// NEST's pp_cond_exp_mc_urbanczik (Urbanczik and Senn 2014): a soma with exponential
// conductances and a dendrite with exponential currents, coupled by g_sp (dendrite to soma) and
// g_ps (soma to dendrite), integrated with the adaptive RKF45 solver at NEST's tolerance; after
// each step's input the soma fires stochastically at rate phi(V_m.s) (once per step at most and
// then dead for t_ref; Poisson counts without t_ref), drawn from the neuron's own stream, and the
// neuron writes its Urbanczik history (models/urbanczik.hpp). Spikes enter at receptor_types
// 1..4 (soma_exc, soma_inh, dendritic_exc, dendritic_inh), currents at 5..6 (soma_curr,
// dendritic_curr). As in NEST, the dendrite's I_e and current input do not enter its equation.
#include <cmath>

#include "core/rng.hpp"
#include "models/ode_neuron.hpp"
#include "models/urbanczik.hpp"

namespace ranvier {
namespace {

constexpr int n_comp = 2;  // soma, dendrite
enum CompVar { V_m, g_ex, g_in, I_ex, I_in, g_L, C_m, E_ex, E_in, E_L, tau_syn_ex, tau_syn_in, I_e, I_stim, per_comp };
enum GlobalVar {
  t_ref = n_comp * per_comp,
  g_sp,
  g_ps,
  phi_max,
  rate_slope,
  beta,
  theta,
  tau_minus,
  tau_minus_triplet,
  integration_step
};
constexpr int var(int c, CompVar v) { return c * per_comp + v; }
constexpr const char* suffix[n_comp] = {"s", "p"};
constexpr int W = ode::lanes;
constexpr int n_state = 5;  // V_m, g_ex, g_in, I_ex, I_in per compartment, as NEST's state vector

// The rate function and its weighting (NEST's pp_cond_exp_mc_urbanczik_parameters::phi and h).
struct UrbanczikRate {
  double phi_max, rate_slope, beta, theta;
  double phi(double u) const { return phi_max / (1.0 + rate_slope * std::exp(beta * (theta - u))); }
  double h(double u) const { return 15.0 * beta / (1.0 + (1.0 / rate_slope) * std::exp(-beta * (theta - u))); }
};

class PpCondExpMcUrbanczik final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, n_comp * n_state> state = {var(0, V_m),  var(0, g_ex), var(0, g_in), var(0, I_ex),
                                                              var(0, I_in), var(1, V_m),  var(1, g_ex), var(1, g_in),
                                                              var(1, I_ex), var(1, I_in)};
  static constexpr int I_stim = var(0, CompVar::I_stim), integration_step = GlobalVar::integration_step;

  struct System {
    static constexpr int n = n_comp * n_state;
    double g_L[n_comp][W], C_m[n_comp][W], E_L[n_comp][W], tau_ex[n_comp][W], tau_in[n_comp][W];
    double E_ex[W], E_in[W], I_stim[W], I_e[W], g_sp[W], g_ps[W];  // the soma's, the couplings
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      for (int c = 0; c < n_comp; ++c) {
        g_L[c][l] = v(var(c, CompVar::g_L)), C_m[c][l] = v(var(c, CompVar::C_m)), E_L[c][l] = v(var(c, CompVar::E_L));
        tau_ex[c][l] = v(var(c, tau_syn_ex)), tau_in[c][l] = v(var(c, tau_syn_in));
      }
      E_ex[l] = v(var(0, CompVar::E_ex)), E_in[l] = v(var(0, CompVar::E_in));
      I_stim[l] = i_stim, I_e[l] = v(var(0, CompVar::I_e)), g_sp[l] = v(GlobalVar::g_sp), g_ps[l] = v(GlobalVar::g_ps);
    }
    // NEST's right-hand side in its order of operations.
    void derivatives(const double* y, double* f) const {
      for (int l = 0; l < W; ++l) {
        const double V = y[l], V_d = y[n_state * W + l];
        const double I_L = g_L[0][l] * (V - E_L[0][l]);
        const double I_syn_exc = y[W + l] * (V - E_ex[l]), I_syn_inh = y[2 * W + l] * (V - E_in[l]);
        const double I_conn_d_s = 0.0 + g_sp[l] * (V_d - V), I_conn_s_d = g_ps[l] * (V - V_d);
        const double I_syn_ex = y[(n_state + 3) * W + l], I_syn_in = y[(n_state + 4) * W + l];
        f[n_state * W + l] = (-g_L[1][l] * (V_d - E_L[1][l]) + I_syn_ex + I_syn_in + I_conn_s_d) / C_m[1][l];
        f[(n_state + 1) * W + l] = f[(n_state + 2) * W + l] = 0.0;
        f[(n_state + 3) * W + l] = -I_syn_ex / tau_ex[1][l];
        f[(n_state + 4) * W + l] = -I_syn_in / tau_in[1][l];
        f[l] = (-I_L - I_syn_exc - I_syn_inh + I_conn_d_s + I_stim[l] + I_e[l]) / C_m[0][l];
        f[W + l] = -y[W + l] / tau_ex[0][l];
        f[2 * W + l] = -y[2 * W + l] / tau_in[0][l];
        f[3 * W + l] = f[4 * W + l] = 0.0;
      }
    }
  };

  const char* name() const override { return "pp_cond_exp_mc_urbanczik"; }
  PostHistory post_history() const override { return PostHistory::urbanczik; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m.s", "g_ex.s", "g_in.s", "V_m.p", "I_ex.p", "I_in.p"};
  }
  std::vector<std::pair<std::string, std::string>> compartments() const override {
    return {{"soma", suffix[0]}, {"dendritic", suffix[1]}};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v;
      const double E_in_of[n_comp] = {-75.0, 0.0};
      for (int c = 0; c < n_comp; ++c) {
        const std::string s = std::string(".") + suffix[c];
        for (const Variable& x : std::vector<Variable>{{"V_m", -70.0, "mV"},
                                                       {"g_ex", 0.0, "nS"},
                                                       {"g_in", 0.0, "nS"},
                                                       {"I_ex", 0.0, "pA"},
                                                       {"I_in", 0.0, "pA"},
                                                       {"g_L", 30.0, "nS"},
                                                       {"C_m", 300.0, "pF"},
                                                       {"E_ex", 0.0, "mV"},
                                                       {"E_in", E_in_of[c], "mV"},
                                                       {"E_L", -70.0, "mV"},
                                                       {"tau_syn_ex", 3.0, "ms"},
                                                       {"tau_syn_in", 3.0, "ms"},
                                                       {"I_e", 0.0, "pA"},
                                                       {"I_stim", 0.0, "pA"}})
          v.push_back({x.name + s, x.default_value, x.unit});
      }
      for (const Variable& x : std::vector<Variable>{{"t_ref", 3.0, "ms"},
                                                     {"g_sp", 600.0, "nS"},
                                                     {"g_ps", 0.0, "nS"},
                                                     {"phi_max", 0.15, "1/ms"},
                                                     {"rate_slope", 0.5, ""},
                                                     {"beta", 1.0 / 3.0, "1/mV"},
                                                     {"theta", -55.0, "mV"},
                                                     {"tau_minus", 20.0, "ms"},
                                                     {"tau_minus_triplet", 110.0, "ms"},
                                                     {"integration_step", 0.0, "ms"}})
        v.push_back(x);
      return v;
    }();
    return vars;
  }
  std::vector<std::pair<std::string, uint32_t>> receptor_types() const override {
    return {{"soma_exc", 1},      {"soma_inh", 2},  {"dendritic_exc", 3},
            {"dendritic_inh", 4}, {"soma_curr", 5}, {"dendritic_curr", 6}};
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 2 * n_comp;
    g.state = std::make_unique<UrbanczikState>(g.size());
  }
  // Spikes at receptor_type 1..4 (ports 0..3), currents at 5..6 (ports 0..1), as NEST numbers them.
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) {
      if (receptor < 5 || receptor > 6)
        throw bad_value("receptor_type", receptor, "5 or 6 for currents into " + std::string(name()));
      return receptor - 5;
    }
    if (receptor < 1 || receptor > 4)
      throw bad_value("receptor_type", receptor, "1..4 for spikes into " + std::string(name()));
    return receptor - 1;
  }
  uint32_t receptor(uint32_t port) const override { return port + 1; }
  uint32_t current_receptor(uint32_t port) const override { return port + 5; }

  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    for (int c = 0; c < n_comp; ++c)
      for (const int k : {var(c, CompVar::C_m), var(c, tau_syn_ex), var(c, tau_syn_in)})
        if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name, v(k), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override {
    ode_neuron::start_steps(g, integration_step, h);
    UrbanczikState& s = urbanczik_state(g);
    for (size_t i = 0; i < g.size(); ++i) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      s.dendrite[i] = {v(var(1, CompVar::g_L)), v(var(1, CompVar::C_m)), v(var(1, tau_syn_ex)), v(var(1, tau_syn_in))};
    }
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<PpCondExpMcUrbanczik>(g, ctx); }

  // NEST's order at a step's end: the spikes join the soma's conductances and the dendrite's
  // currents (an inhibitory current counts negatively), the soma may fire, the history is
  // written, and the currents that arrived drive the next step.
  static void finish(const ode_neuron::Lane& at, const System&, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    const InputRow row = ctx.row(lag);
    double spikes[2 * n_comp] = {input.excitatory + input.inhibitory};
    for (uint32_t port = 1; port < 2 * n_comp; ++port) {
      const uint32_t column = g.input(i, port);
      spikes[port] = row.excitatory[column] + row.inhibitory[column];
      row.excitatory[column] = row.inhibitory[column] = 0.0;
    }
    y[W + l] += spikes[0];
    y[2 * W + l] += spikes[1];
    y[(n_state + 3) * W + l] += spikes[2];
    y[(n_state + 4) * W + l] -= spikes[3];
    const UrbanczikRate rate{v(phi_max), v(rate_slope), v(beta), v(theta)};
    uint32_t n_spikes = 0;
    int32_t& r = g.counters[i];
    if (r == 0) {
      const double hz = 1000.0 * rate.phi(y[l]);
      if (hz > 0.0) {
        const Stream draws(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0);
        const uint64_t step = uint64_t(ctx.origin + lag);
        const double mean = hz * ctx.h * 1e-3;
        n_spikes = v(t_ref) > 0.0 ? uint32_t(draws.uniform(step) <= -std::expm1(-mean)) : draws.poisson(step, mean);
        if (n_spikes > 0) r = ctx.steps(v(t_ref));
        for (uint32_t k = 0; k < n_spikes; ++k) ctx.spike(g, i, lag);
      }
    } else {
      --r;
    }
    // the dendritic prediction of the soma's potential, and its error
    const double g_D = v(g_sp), g_L_s = v(var(0, CompVar::g_L)), E_L_s = v(var(0, CompVar::E_L));
    const double V_W_star = (E_L_s * g_L_s + y[n_state * W + l] * g_D) / (g_D + g_L_s);
    UrbanczikState& s = urbanczik_state(g);
    if (s.incoming[i])
      s.histories[i].push(ctx.origin + lag + 1, (double(n_spikes) - rate.phi(V_W_star) * ctx.h) * rate.h(V_W_star),
                          s.incoming[i]);
    const uint32_t dendrite = g.input(i, 1);
    g.vars[var(1, CompVar::I_stim)][i] = row.current[dendrite];
    row.current[dendrite] = 0.0;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(PpCondExpMcUrbanczik);

}  // namespace ranvier
