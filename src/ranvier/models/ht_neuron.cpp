// NEST's ht_neuron (Hill & Tononi 2005): a point neuron with a dynamic threshold, a spike-
// triggered potassium current, the intrinsic currents I_NaP, I_KNa, I_T and I_h, and four
// beta-shaped synaptic conductances at receptor_types AMPA (1), NMDA (2, with NEST's fast and
// slow magnesium unblocking), GABA_A (3) and GABA_B (4); integrated with the adaptive RKF45
// solver at NEST's tolerance. It fires when V_m reaches theta, which sets both to E_Na, as NEST
// tests after each solver step within the network's step; ht_synapse is its synapse.
#include <cmath>

#include "models/beta_peak.hpp"
#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

enum Var {
  E_Na,
  E_K,
  g_NaL,
  g_KL,
  tau_m,
  theta_eq,
  tau_theta,
  tau_spike,
  t_ref,
  g_peak_AMPA,
  tau_rise_AMPA,
  tau_decay_AMPA,
  E_rev_AMPA,
  g_peak_NMDA,
  tau_rise_NMDA,
  tau_decay_NMDA,
  E_rev_NMDA,
  V_act_NMDA,
  S_act_NMDA,
  tau_Mg_slow_NMDA,
  tau_Mg_fast_NMDA,
  instant_unblock_NMDA,
  g_peak_GABA_A,
  tau_rise_GABA_A,
  tau_decay_GABA_A,
  E_rev_GABA_A,
  g_peak_GABA_B,
  tau_rise_GABA_B,
  tau_decay_GABA_B,
  E_rev_GABA_B,
  g_peak_NaP,
  E_rev_NaP,
  N_NaP,
  g_peak_KNa,
  E_rev_KNa,
  tau_D_KNa,
  g_peak_T,
  E_rev_T,
  N_T,
  g_peak_h,
  E_rev_h,
  voltage_clamp,
  tau_minus,
  tau_minus_triplet,
  equilibrate,  // set only: the gates to their equilibrium at V_m (NEST's)
  // the solver's state, in NEST's order: a receptor's conductance g follows its derivative dg
  V_m,
  theta,
  dg_AMPA,
  g_AMPA,
  dg_NMDA_timecourse,
  g_NMDA_timecourse,
  dg_GABA_A,
  g_GABA_A,
  dg_GABA_B,
  g_GABA_B,
  m_fast_NMDA,
  m_slow_NMDA,
  m_Ih,
  D_IKNa,
  m_IT,
  h_IT,
  // recorded: NMDA's conductance with its unblocking, and the intrinsic currents as NEST records them
  g_NMDA,
  I_NaP,
  I_KNa,
  I_T,
  I_h,
  V_clamp,  // V_m when the run started (voltage_clamp holds it)
  I_stim_var,
  step_var
};
constexpr int n_state = h_IT - V_m + 1;
constexpr int W = ode::lanes;
constexpr uint32_t n_receptors = 4;  // AMPA, NMDA, GABA_A, GABA_B: receptor_type 1..4

// The equilibrium values of the gates at V (NEST's; the NMDA's depends on two parameters).
double m_eq_h(double V) { return 1.0 / (1.0 + std::exp((V - -75.0) / 5.5)); }
double h_eq_T(double V) { return 1.0 / (1.0 + std::exp((V + 83.0) / 4)); }
double m_eq_T(double V) { return 1.0 / (1.0 + std::exp(-(V + 59.0) / 6.2)); }
double D_eq_KNa(double V, double tau_D) { return tau_D * (0.025 / (1.0 + std::exp(-(V - -10.0) / 5.0))) + 0.001; }
double m_eq_NMDA(double V, double S_act, double V_act) { return 1.0 / (1.0 + std::exp(-S_act * (V - V_act))); }
double m_NMDA(double V, double m_eq, double m_fast, double m_slow, bool instant) {
  const double A1 = 0.51 - 0.0028 * V;
  return instant ? m_eq : A1 * m_fast + (1 - A1) * m_slow;
}

class HtNeuron final : public NeuronModel, public ode_neuron::DefaultRules {
 public:
  static constexpr int I_stim = I_stim_var, integration_step = step_var;

  struct System {
    static constexpr int n = n_state;
    double p[W][V_m];  // each lane's parameters, by Var
    double I[W];       // the current of the step
    double V_held[W];  // the clamp's V_m, NaN without clamp
    bool refractory[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      for (int k = 0; k < V_m; ++k) p[l][k] = g.vars[size_t(k)][i];
      I[l] = i_stim;
      V_held[l] = p[l][voltage_clamp] != 0.0 ? g.vars[V_clamp][i] : NAN;
      refractory[l] = g.counters[i] > 0;
    }
    // The intrinsic currents at state y of lane l (V: the clamped one where clamped).
    struct Intrinsic {
      double NaP, KNa, T, h;
    };
    Intrinsic intrinsic(const double* y, int l, double V) const {
      const double* q = p[l];
      const double m_inf_NaP = 1.0 / (1.0 + std::exp(-(V - -55.7) / 7.7));
      const double m_inf_KNa = 1.0 / (1.0 + std::pow(0.25 / y[(D_IKNa - V_m) * W + l], 3.5));
      return {-q[g_peak_NaP] * std::pow(m_inf_NaP, q[N_NaP]) * (V - q[E_rev_NaP]),
              -q[g_peak_KNa] * m_inf_KNa * (V - q[E_rev_KNa]),
              -q[g_peak_T] * std::pow(y[(m_IT - V_m) * W + l], q[N_T]) * y[(h_IT - V_m) * W + l] * (V - q[E_rev_T]),
              -q[g_peak_h] * y[(m_Ih - V_m) * W + l] * (V - q[E_rev_h])};
    }
    double voltage(const double* y, int l) const { return std::isnan(V_held[l]) ? y[l] : V_held[l]; }
    void derivatives(const double* y, double* f) const {
      for (int l = 0; l < W; ++l) {
        const double* q = p[l];
        auto s = [&](int k) { return y[(k - V_m) * W + l]; };
        auto d = [&](int k) -> double& { return f[(k - V_m) * W + l]; };
        const double V = voltage(y, l);
        // unblocking cannot run ahead of its equilibrium (NEST's, here and after each step)
        const double m_eq = m_eq_NMDA(V, q[S_act_NMDA], q[V_act_NMDA]);
        const double m_fast = std::min(m_eq, s(m_fast_NMDA)), m_slow = std::min(m_eq, s(m_slow_NMDA));
        const double m = m_NMDA(V, m_eq, m_fast, m_slow, q[instant_unblock_NMDA] != 0.0);
        const double I_syn = -s(g_AMPA) * (V - q[E_rev_AMPA]) - s(g_NMDA_timecourse) * m * (V - q[E_rev_NMDA]) -
                             s(g_GABA_A) * (V - q[E_rev_GABA_A]) - s(g_GABA_B) * (V - q[E_rev_GABA_B]);
        const double I_spike = refractory[l] ? -(V - q[E_K]) / q[tau_spike] : 0.0;
        const double I_Na = -q[g_NaL] * (V - q[E_Na]);
        const double I_K = -q[g_KL] * (V - q[E_K]);
        const Intrinsic c = intrinsic(y, l, V);
        d(V_m) = (I_Na + I_K + I_syn + c.NaP + c.KNa + c.T + c.h + I[l]) / q[tau_m] + I_spike;
        d(theta) = -(s(theta) - q[theta_eq]) / q[tau_theta];
        for (const auto [dg, g, rise, decay] :
             {std::array{dg_AMPA, g_AMPA, tau_rise_AMPA, tau_decay_AMPA},
              std::array{dg_NMDA_timecourse, g_NMDA_timecourse, tau_rise_NMDA, tau_decay_NMDA},
              std::array{dg_GABA_A, g_GABA_A, tau_rise_GABA_A, tau_decay_GABA_A},
              std::array{dg_GABA_B, g_GABA_B, tau_rise_GABA_B, tau_decay_GABA_B}}) {
          d(dg) = -s(dg) / q[rise];
          d(g) = s(dg) - s(g) / q[decay];
        }
        d(m_fast_NMDA) = (m_eq - m_fast) / q[tau_Mg_fast_NMDA];
        d(m_slow_NMDA) = (m_eq - m_slow) / q[tau_Mg_slow_NMDA];
        d(D_IKNa) = (D_eq_KNa(V, q[tau_D_KNa]) - s(D_IKNa)) / q[tau_D_KNa];
        const double tau_m_T = 0.22 / (std::exp(-(V + 132.0) / 16.7) + std::exp((V + 16.8) / 18.2)) + 0.13;
        const double tau_h_T = 8.2 + (56.6 + 0.27 * std::exp((V + 115.2) / 5.0)) / (1.0 + std::exp((V + 86.0) / 3.2));
        d(m_IT) = (m_eq_T(V) - s(m_IT)) / tau_m_T;
        d(h_IT) = (h_eq_T(V) - s(h_IT)) / tau_h_T;
        const double tau_m_h = 1.0 / (std::exp(-14.59 - 0.086 * V) + std::exp(-1.87 + 0.0701 * V));
        d(m_Ih) = (m_eq_h(V) - s(m_Ih)) / tau_m_h;
      }
    }
  };

  static void load_state(const NeuronGroup& g, size_t i, int l, double* y) {
    for (int k = 0; k < n_state; ++k) y[k * W + l] = g.vars[size_t(V_m + k)][i];
  }
  static void store_state(NeuronGroup& g, size_t i, int l, const double* y) {
    for (int k = 0; k < n_state; ++k) g.vars[size_t(V_m + k)][i] = y[k * W + l];
  }

  const char* name() const override { return "ht_neuron"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"I_KNa",  "I_NaP",    "I_T",      "I_h",    "V_m",
                                    "g_AMPA", "g_GABA_A", "g_GABA_B", "g_NMDA", "theta"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = {{"E_Na", 30.0, "mV"},
                                 {"E_K", -90.0, "mV"},
                                 {"g_NaL", 0.2, ""},
                                 {"g_KL", 1.0, ""},
                                 {"tau_m", 16.0, "ms"},
                                 {"theta_eq", -51.0, "mV"},
                                 {"tau_theta", 2.0, "ms"},
                                 {"tau_spike", 1.75, "ms"},
                                 {"t_ref", 2.0, "ms"},
                                 {"g_peak_AMPA", 0.1, ""},
                                 {"tau_rise_AMPA", 0.5, "ms"},
                                 {"tau_decay_AMPA", 2.4, "ms"},
                                 {"E_rev_AMPA", 0.0, "mV"},
                                 {"g_peak_NMDA", 0.075, ""},
                                 {"tau_rise_NMDA", 4.0, "ms"},
                                 {"tau_decay_NMDA", 40.0, "ms"},
                                 {"E_rev_NMDA", 0.0, "mV"},
                                 {"V_act_NMDA", -25.57, "mV"},
                                 {"S_act_NMDA", 0.081, "1/mV"},
                                 {"tau_Mg_slow_NMDA", 22.7, "ms"},
                                 {"tau_Mg_fast_NMDA", 0.68, "ms"},
                                 {"instant_unblock_NMDA", 0.0, "", true},
                                 {"g_peak_GABA_A", 0.33, ""},
                                 {"tau_rise_GABA_A", 1.0, "ms"},
                                 {"tau_decay_GABA_A", 7.0, "ms"},
                                 {"E_rev_GABA_A", -70.0, "mV"},
                                 {"g_peak_GABA_B", 0.0132, ""},
                                 {"tau_rise_GABA_B", 60.0, "ms"},
                                 {"tau_decay_GABA_B", 200.0, "ms"},
                                 {"E_rev_GABA_B", -90.0, "mV"},
                                 {"g_peak_NaP", 1.0, ""},
                                 {"E_rev_NaP", 30.0, "mV"},
                                 {"N_NaP", 3.0, ""},
                                 {"g_peak_KNa", 1.0, ""},
                                 {"E_rev_KNa", -90.0, "mV"},
                                 {"tau_D_KNa", 1250.0, "ms"},
                                 {"g_peak_T", 1.0, ""},
                                 {"E_rev_T", 0.0, "mV"},
                                 {"N_T", 2.0, ""},
                                 {"g_peak_h", 1.0, ""},
                                 {"E_rev_h", -40.0, "mV"},
                                 {"voltage_clamp", 0.0, "", true},
                                 {"tau_minus", 20.0, "ms"},
                                 {"tau_minus_triplet", 110.0, "ms"},
                                 {"equilibrate", 0.0, "", true}};
      // the state at rest: V_m where the leaks balance, the gates at their equilibrium there
      const double V = (0.2 * 30.0 + 1.0 * -90.0) / (0.2 + 1.0);
      const double m_eq = m_eq_NMDA(V, 0.081, -25.57);
      for (const auto& [name, value, unit] :
           std::vector<std::tuple<const char*, double, const char*>>{{"V_m", V, "mV"},
                                                                     {"theta", -51.0, "mV"},
                                                                     {"dg_AMPA", 0.0, "1/ms"},
                                                                     {"g_AMPA", 0.0, ""},
                                                                     {"dg_NMDA_timecourse", 0.0, "1/ms"},
                                                                     {"g_NMDA_timecourse", 0.0, ""},
                                                                     {"dg_GABA_A", 0.0, "1/ms"},
                                                                     {"g_GABA_A", 0.0, ""},
                                                                     {"dg_GABA_B", 0.0, "1/ms"},
                                                                     {"g_GABA_B", 0.0, ""},
                                                                     {"m_fast_NMDA", m_eq, ""},
                                                                     {"m_slow_NMDA", m_eq, ""},
                                                                     {"m_Ih", m_eq_h(V), ""},
                                                                     {"D_IKNa", D_eq_KNa(V, 1250.0), ""},
                                                                     {"m_IT", m_eq_T(V), ""},
                                                                     {"h_IT", h_eq_T(V), ""},
                                                                     {"g_NMDA", 0.0, ""},
                                                                     {"I_NaP", 0.0, "pA"},
                                                                     {"I_KNa", 0.0, "pA"},
                                                                     {"I_T", 0.0, "pA"},
                                                                     {"I_h", 0.0, "pA"},
                                                                     {"V_clamp", V, "mV"},
                                                                     {"I_stim", 0.0, "pA"},
                                                                     {"integration_step", 0.0, "ms"}})
        v.push_back({name, value, unit});
      return v;
    }();
    return vars;
  }
  std::vector<std::pair<std::string, uint32_t>> receptor_types() const override {
    return {{"AMPA", 1}, {"NMDA", 2}, {"GABA_A", 3}, {"GABA_B", 4}};
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = n_receptors;
  }
  // Spikes at receptor_type 1..4, currents at 0 (NEST's).
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) {
      if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for currents into ht_neuron");
      return 0;
    }
    if (receptor == 0 || receptor > n_receptors)
      throw bad_value("receptor_type", receptor,
                      "1..4 for spikes into ht_neuron (AMPA, NMDA, GABA_A, GABA_B; see its receptor_types)");
    return receptor - 1;  // which NEST reports as the connection's receptor (its rport)
  }

  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    auto name = [&](int k) { return variables()[size_t(k)].name; };
    for (int k : {g_peak_AMPA, g_peak_GABA_A, g_peak_GABA_B, g_peak_KNa, S_act_NMDA, g_peak_NMDA, g_peak_T, g_peak_h,
                  g_peak_NaP, g_KL, g_NaL, t_ref})
      if (!(v(k) >= 0)) throw bad_value(name(k), v(k), ">= 0");
    for (int k : {tau_rise_AMPA, tau_decay_AMPA, tau_rise_GABA_A, tau_decay_GABA_A, tau_rise_GABA_B, tau_decay_GABA_B,
                  tau_rise_NMDA, tau_decay_NMDA, tau_Mg_fast_NMDA, tau_Mg_slow_NMDA, tau_spike, tau_theta, tau_m,
                  tau_D_KNa, tau_minus})
      if (!(v(k) > 0)) throw bad_value(name(k), v(k), "> 0");
    for (auto [fast, slow] : {std::pair{tau_rise_AMPA, tau_decay_AMPA},
                              {tau_rise_GABA_A, tau_decay_GABA_A},
                              {tau_rise_GABA_B, tau_decay_GABA_B},
                              {tau_rise_NMDA, tau_decay_NMDA},
                              {tau_Mg_fast_NMDA, tau_Mg_slow_NMDA}})
      if (!(v(fast) < v(slow)))
        throw bad_value(name(fast), v(fast), "< " + name(slow) + " = " + std::to_string(v(slow)));
  }
  // equilibrate: the gates to their equilibrium at the V_m now set (NEST's), then off again
  void on_set(NeuronGroup& g, size_t i, const SetContext&) const override {
    auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
    if (v(equilibrate) == 0.0) return;
    const double V = v(V_m);
    v(m_fast_NMDA) = v(m_slow_NMDA) = m_eq_NMDA(V, v(S_act_NMDA), v(V_act_NMDA));
    v(m_Ih) = m_eq_h(V);
    v(D_IKNa) = D_eq_KNa(V, v(tau_D_KNa));
    v(m_IT) = m_eq_T(V);
    v(h_IT) = h_eq_T(V);
    v(equilibrate) = 0.0;
  }
  void calibrate(NeuronGroup& g, double h) const override {
    ode_neuron::start_steps(g, integration_step, h);
    g.internals.assign(n_receptors, std::vector<double>(g.size()));  // a spike's jump of dg per unit of weight
    for (size_t i = 0; i < g.size(); ++i) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      g.internals[0][i] = v(g_peak_AMPA) * beta_peak_factor(v(tau_rise_AMPA), v(tau_decay_AMPA));
      g.internals[1][i] = v(g_peak_NMDA) * beta_peak_factor(v(tau_rise_NMDA), v(tau_decay_NMDA));
      g.internals[2][i] = v(g_peak_GABA_A) * beta_peak_factor(v(tau_rise_GABA_A), v(tau_decay_GABA_A));
      g.internals[3][i] = v(g_peak_GABA_B) * beta_peak_factor(v(tau_rise_GABA_B), v(tau_decay_GABA_B));
      g.vars[V_clamp][i] = v(V_m);  // NEST clamps to V_m as it is when a run starts
    }
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<HtNeuron>(g, ctx); }

  // After each solver step: the clamp, NMDA's blocking, the intrinsic currents as NEST's last
  // evaluation leaves them, and a spike where V_m reached theta outside refractoriness.
  static void after_step(const ode_neuron::Lane& at, System& sys) {
    auto& [g, i, l, y, ctx, lag] = at;
    const double* q = sys.p[l];
    auto s = [&](int k) -> double& { return y[(k - V_m) * W + l]; };
    if (!std::isnan(sys.V_held[l])) s(V_m) = sys.V_held[l];
    const double m_eq = m_eq_NMDA(s(V_m), q[S_act_NMDA], q[V_act_NMDA]);
    s(m_fast_NMDA) = std::min(m_eq, s(m_fast_NMDA));
    s(m_slow_NMDA) = std::min(m_eq, s(m_slow_NMDA));
    const System::Intrinsic c = sys.intrinsic(y, l, sys.voltage(y, l));
    g.vars[I_NaP][i] = c.NaP, g.vars[I_KNa][i] = c.KNa, g.vars[I_T][i] = c.T, g.vars[I_h][i] = c.h;
    if (g.counters[i] == 0 && s(V_m) >= s(theta)) {
      s(V_m) = s(theta) = q[E_Na];
      g.counters[i] = ctx.steps(q[t_ref]) + 1;  // one less at the end of this step
      sys.refractory[l] = true;
      ctx.spike(g, i, lag);
    }
  }
  // After the step: refractoriness counts down, each receptor's dg jumps by its spikes.
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    if (g.counters[i] > 0) --g.counters[i];
    const InputRow row = ctx.row(lag);
    for (uint32_t port = 0; port < n_receptors; ++port) {
      double weight = input.excitatory + input.inhibitory;
      if (port > 0) {
        const uint32_t column = g.input(i, port);
        weight = row.excitatory[column] + row.inhibitory[column];
        row.excitatory[column] = row.inhibitory[column] = 0.0;
      }
      y[(dg_AMPA - V_m + 2 * int(port)) * W + l] += g.internals[port][i] * weight;
    }
    const double* q = sys.p[l];
    const double V = y[l];
    g.vars[g_NMDA][i] = y[(g_NMDA_timecourse - V_m) * W + l] *
                        m_NMDA(V, m_eq_NMDA(V, q[S_act_NMDA], q[V_act_NMDA]), y[(m_fast_NMDA - V_m) * W + l],
                               y[(m_slow_NMDA - V_m) * W + l], q[instant_unblock_NMDA] != 0.0);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(HtNeuron);

}  // namespace ranvier
