// NEST's iaf_bw_2001: the integrate-and-fire neuron of Brunel and Wang (2001) and Wang (2002)
// with exponential AMPA and GABA conductances and NEST's approximation of the saturating NMDA
// synapse. The sender keeps its own NMDA gating variable s_pre, which at each spike jumps by
// k_0 + k_1 s_pre (NEST's constants, which make the approximation approach the exact model for
// long times), and sends that jump with the spike (NeuronModel::spike_payload); a target's NMDA
// receptor adds weight x jump. Integrated with RKF45 at NEST's gsl_error_tol. Receptors: AMPA 1,
// GABA 2, NMDA 3 (from iaf_bw_2001 cells only); currents at 0.
#include <cmath>

#include "core/gamma_hazard.hpp"
#include "core/rkf45.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_L,
  E_ex,
  E_in,
  V_th,
  V_reset,
  C_m,
  g_L,
  t_ref,
  tau_AMPA,
  tau_GABA,
  tau_decay_NMDA,
  tau_rise_NMDA,
  alpha,
  conc_Mg2,
  gsl_error_tol,
  tau_minus,
  tau_minus_triplet,
  s_AMPA,
  s_GABA,
  s_NMDA,
  I_NMDA,
  I_AMPA,
  I_GABA,
  I_stim,
  integration_step,
  s_NMDA_pre,
  t_last,
  n_vars
};
enum Internal { k_0, k_1, n_internal };
enum Receptor { AMPA, GABA, NMDA, n_receptors };  // ports: NEST's receptor_type - 1
constexpr int W = ode::lanes;

// The right-hand side of NEST's iaf_bw_2001_dynamics for W lanes: V_m, s_AMPA, s_GABA, s_NMDA.
struct System {
  static constexpr int n = 4;
  double E_L[W], E_ex[W], E_in[W], C_m[W], g_L[W], tau_AMPA[W], tau_GABA[W], tau_NMDA[W], Mg[W], I_stim[W];
  void load(const NeuronGroup& g, size_t i, int l) {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    E_L[l] = v(Var::E_L), E_ex[l] = v(Var::E_ex), E_in[l] = v(Var::E_in), C_m[l] = v(Var::C_m);
    g_L[l] = v(Var::g_L), tau_AMPA[l] = v(Var::tau_AMPA), tau_GABA[l] = v(Var::tau_GABA);
    tau_NMDA[l] = v(tau_decay_NMDA), Mg[l] = v(conc_Mg2), I_stim[l] = v(Var::I_stim);
  }
  // The synaptic currents of lane l at state y (pA), in NEST's expressions.
  [[gnu::always_inline]] void currents(const double* y, int l, double& ampa, double& gaba, double& nmda) const {
    const double V = y[l];
    ampa = (V - E_ex[l]) * y[W + l];
    gaba = (V - E_in[l]) * y[2 * W + l];
    nmda = (V - E_ex[l]) / (1 + Mg[l] * std::exp(-0.062 * V) / 3.57) * y[3 * W + l];
  }
  void derivatives(const double* y, double* f) const {
    for (int l = 0; l < W; ++l) {
      double ampa, gaba, nmda;
      currents(y, l, ampa, gaba, nmda);
      const double I_syn = ampa + gaba + nmda;
      f[l] = (-g_L[l] * (y[l] - E_L[l]) - I_syn + I_stim[l]) / C_m[l];
      f[W + l] = -y[W + l] / tau_AMPA[l];
      f[2 * W + l] = -y[2 * W + l] / tau_GABA[l];
      f[3 * W + l] = -y[3 * W + l] / tau_NMDA[l];
    }
  }
};

class IafBw2001 final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_bw_2001"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"I_AMPA", "I_GABA", "I_NMDA", "V_m", "s_AMPA", "s_GABA", "s_NMDA"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", -70.0, "mV"},
        {"E_L", -70.0, "mV"},
        {"E_ex", 0.0, "mV"},
        {"E_in", -70.0, "mV"},
        {"V_th", -55.0, "mV"},
        {"V_reset", -60.0, "mV"},
        {"C_m", 500.0, "pF"},
        {"g_L", 25.0, "nS"},
        {"t_ref", 2.0, "ms"},
        {"tau_AMPA", 2.0, "ms"},
        {"tau_GABA", 5.0, "ms"},
        {"tau_decay_NMDA", 100.0, "ms"},
        {"tau_rise_NMDA", 2.0, "ms"},
        {"alpha", 0.5, "1/ms"},
        {"conc_Mg2", 1.0, "mM"},
        {"gsl_error_tol", 1e-3, ""},
        {"tau_minus", 20.0, "ms"},
        {"tau_minus_triplet", 110.0, "ms"},
        {"s_AMPA", 0.0, ""},
        {"s_GABA", 0.0, ""},
        {"s_NMDA", 0.0, ""},
        {"I_NMDA", 0.0, "pA"},
        {"I_AMPA", 0.0, "pA"},
        {"I_GABA", 0.0, "pA"},
        {"I_stim", 0.0, "pA", false, {}, true},
        {"integration_step", 0.0, "ms", false, {}, true},
        {"s_NMDA_pre", 0.0, "", false, {}, true},  // the sender's own NMDA gating
        {"t_last", -1.0, "ms", false, {}, true}};  // NEST's time of the last spike (-1 before one)
    return vars;
  }
  std::vector<std::pair<std::string, uint32_t>> receptor_types() const override {
    return {{"AMPA", 1}, {"GABA", 2}, {"NMDA", 3}};
  }
  bool spike_payload() const override { return true; }
  bool takes_events() const override { return true; }  // the NMDA jump each spike carries
  bool takes_currents() const override { return true; }
  void check_source(const NeuronModel* source, uint32_t receptor) const override {
    if (receptor == NMDA + 1 && source != this)
      throw IllegalConnectionError(
          "For NMDA synapses in iaf_bw_2001, pre-synaptic neuron must also be of type iaf_bw_2001");
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = n_receptors;
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) {
      if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for currents into iaf_bw_2001");
      return 0;
    }
    if (receptor == 0 || receptor > n_receptors)
      throw bad_value("receptor_type", receptor, "1..3 for spikes into iaf_bw_2001 (AMPA, GABA, NMDA)");
    return receptor - 1;
  }
  uint32_t receptor(uint32_t port) const override { return port + 1; }

  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    for (int k : {tau_AMPA, tau_GABA, tau_decay_NMDA, tau_rise_NMDA, alpha, conc_Mg2, gsl_error_tol, tau_minus})
      if (!(v(k) > 0)) throw bad_value(own_variables()[size_t(k)].name, v(k), "> 0");
  }

  void calibrate(NeuronGroup& g, double h) const override {
    g.counters.resize(g.size(), 0);
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      auto v = [&](int k) { return g.vars[size_t(k)][i]; };
      if (!(v(integration_step) > 0)) g.vars[integration_step][i] = h;
      const double alpha_tau = v(alpha) * v(tau_rise_NMDA), ratio = v(tau_rise_NMDA) / v(tau_decay_NMDA);
      g.internals[k_1][i] = std::expm1(-alpha_tau);
      // NEST's k_0: (alpha tau_rise)^ratio times the lower incomplete gamma function at (1 - ratio, alpha tau_rise)
      const double a = 1 - ratio,
                   lower_gamma = std::exp(a * std::log(alpha_tau) - alpha_tau) * lower_gamma_series(a, alpha_tau);
      g.internals[k_0][i] = std::pow(alpha_tau, ratio) * lower_gamma;
    }
  }

  // NEST's step: integrate, then the step's spikes join the gating variables, then the
  // threshold (or the refractory clamp); the current read at the end acts in the next step.
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const size_t n = g.size();
    std::vector<double>& arrived = g.scratch;  // by receptor, then neuron
    arrived.assign(n_receptors * n, 0.0);
    System sys;
    alignas(64) ode::Block<System::n> y;
    double step[W];
    ode::Tolerance tol = ode::on_values(1e-3, 0.0);
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      for (const InputEvent& e : ctx.events(lag)) {
        const uint32_t column = e.column - g.first_input;
        if (column < n_receptors * n) arrived[column] += column / n == NMDA ? e.weight * e.offset : e.weight;
      }
      const InputRow in = ctx.row(lag);
      auto load = [&](int l, size_t i) {
        sys.load(g, i, l);
        tol.eps_abs[l] = g.vars[gsl_error_tol][i];
        for (int k = 0; k < System::n; ++k) y[k * W + l] = g.vars[size_t(k == 0 ? V_m : s_AMPA + k - 1)][i];
        step[l] = g.vars[integration_step][i];
      };
      auto finish = [&](int l, size_t i) {
        auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
        sys.currents(y, l, v(I_AMPA), v(I_GABA), v(I_NMDA));  // NEST's last evaluation: at the step's end
        v(V_m) = y[l];
        v(s_AMPA) = y[W + l] + arrived[AMPA * n + i];
        v(s_GABA) = y[2 * W + l] + arrived[GABA * n + i];
        v(s_NMDA) = y[3 * W + l] + arrived[NMDA * n + i];
        arrived[AMPA * n + i] = arrived[GABA * n + i] = arrived[NMDA * n + i] = 0.0;
        v(integration_step) = step[l];
        fire(g, i, ctx, lag);
        const uint32_t column = g.first_input + uint32_t(i);
        v(I_stim) = in.current[column];
        in.current[column] = 0.0;
      };
      try {
        ode::integrate(sys, y, ctx.h, step, tol, n, load, finish, [](int, size_t) {});
      } catch (const ode::Stalled& stalled) {
        throw NumericalInstabilityError("numerical instability while updating iaf_bw_2001 " +
                                        std::to_string(g.gids[stalled.item]) + ": " + stalled.what());
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  // The refractory clamp, or the threshold: a spike carries the jump of the sender's own NMDA
  // gating, decayed since its last spike.
  static void fire(NeuronGroup& g, size_t i, UpdateContext& ctx, int lag) {
    auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
    if (g.counters[i] > 0) {
      --g.counters[i];
      v(V_m) = v(V_reset);
      return;
    }
    if (!(v(V_m) >= v(V_th))) return;
    g.counters[i] = ctx.steps(v(t_ref));
    v(V_m) = v(V_reset);
    const double t = ctx.nest_ms(ctx.origin + lag + 1);
    v(s_NMDA_pre) *= std::exp(-(t - v(t_last)) / v(tau_decay_NMDA));
    v(t_last) = t;
    const double jump = g.internals[k_0][i] + g.internals[k_1][i] * v(s_NMDA_pre);
    v(s_NMDA_pre) += jump;
    ctx.spike(g, i, lag, jump);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafBw2001);

}  // namespace ranvier
