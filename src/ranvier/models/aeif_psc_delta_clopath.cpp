// NEST's aeif_psc_delta_clopath (Clopath et al. 2010): the adaptive exponential neuron with
// delta synapses, an adaptive threshold V_th (V_th_max after a spike, relaxing to V_th_rest), a
// spike afterpotential current z (I_sp after a spike), the potential clamped at V_clamp for
// t_clamp after a spike and then at V_reset for t_ref, and the low-pass filtered potentials
// u_bar_plus, u_bar_minus, u_bar_bar that its Clopath history is written from each step
// (models/clopath_history.hpp). Integrated with the adaptive RKF45 solver at NEST's tolerance;
// each solver step is followed by NEST's rules in NEST's order (input after the first, spike,
// clamp, refractoriness).
#include <cmath>

#include "models/aeif_common.hpp"
#include "models/clopath_history.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  w,
  z,
  V_th,
  u_bar_plus,
  u_bar_minus,
  u_bar_bar,
  V_peak,
  V_reset,
  t_ref,
  g_L,
  C_m,
  E_L,
  Delta_T,
  tau_w,
  tau_z,
  tau_V_th,
  V_th_max,
  V_th_rest,
  tau_u_bar_plus,
  tau_u_bar_minus,
  tau_u_bar_bar,
  a,
  b,
  I_sp,
  I_e,
  gsl_error_tol,
  t_clamp,
  V_clamp,
  tau_minus,
  tau_minus_triplet,
  I_stim,
  integration_step,
  A_LTD  // clopath_variables() from here
};
constexpr aeif::Layout layout{.E_L = E_L,
                              .C_m = C_m,
                              .g_L = g_L,
                              .t_ref = t_ref,
                              .V_th = V_th_rest,
                              .V_peak = V_peak,
                              .V_reset = V_reset,
                              .a = a,
                              .b = b,
                              .Delta_T = Delta_T,
                              .tau_w = tau_w,
                              .I_e = I_e,
                              .gsl_error_tol = gsl_error_tol,
                              .tau_minus = tau_minus};
constexpr int n_state = 7;

class AeifPscDeltaClopath final : public NeuronModel, public aeif::Rules<1, layout> {
 public:
  static constexpr std::array<int, n_state> state = {V_m, w, z, V_th, u_bar_plus, u_bar_minus, u_bar_bar};
  static constexpr int I_stim = Var::I_stim, integration_step = Var::integration_step;

  struct System {
    static constexpr int n = n_state, W = ode::lanes;
    double p[W][A_LTD];  // the lane's neuron's variables up to the Clopath ones
    int32_t refractory[W], clamped[W];
    bool taken[W];  // the step's input has been added
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      for (int k = 0; k < A_LTD; ++k) p[l][k] = g.vars[size_t(k)][i];
      p[l][Var::I_stim] = i_stim;
      refractory[l] = g.counters[i], clamped[l] = g.second_counters[i];
      taken[l] = false;
    }
    // NEST's right-hand side, term by term in its order.
    void derivatives(const double* y, double* f) const {
      for (int l = 0; l < W; ++l) {
        const double* q = p[l];
        const bool held = refractory[l] > 0 || clamped[l] > 0;
        const double V = held ? (clamped[l] > 0 ? q[V_clamp] : q[V_reset]) : std::min(y[l], q[V_peak]);
        const double w_ = y[W + l], z_ = y[2 * W + l], v_th = y[3 * W + l];
        const double ubp = y[4 * W + l], ubm = y[5 * W + l], ubb = y[6 * W + l];
        const double spike = q[Delta_T] == 0. ? 0. : q[g_L] * q[Delta_T] * ode::exp((V - v_th) / q[Delta_T]);
        f[l] = held ? 0.0 : (-q[g_L] * (V - q[E_L]) + spike - w_ + z_ + q[I_e] + q[Var::I_stim]) / q[C_m];
        f[W + l] = clamped[l] > 0 ? 0.0 : (q[a] * (V - q[E_L]) - w_) / q[tau_w];
        f[2 * W + l] = -z_ / q[tau_z];
        f[3 * W + l] = -(v_th - q[V_th_rest]) / q[tau_V_th];
        f[4 * W + l] = (-ubp + V) / q[tau_u_bar_plus];
        f[5 * W + l] = (-ubm + V) / q[tau_u_bar_minus];
        f[6 * W + l] = (-ubb + ubm) / q[tau_u_bar_bar];
      }
    }
  };

  const char* name() const override { return "aeif_psc_delta_clopath"; }
  PostHistory post_history() const override { return PostHistory::clopath; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "w", "z", "V_th", "u_bar_plus", "u_bar_minus", "u_bar_bar"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v{{"V_m", -70.6, "mV"},
                              {"w", 0.0, "pA"},
                              {"z", 0.0, "pA"},
                              {"V_th", -50.4, "mV"},
                              {"u_bar_plus", -70.6, "mV"},
                              {"u_bar_minus", -70.6, "mV"},
                              {"u_bar_bar", -70.6, "mV"},
                              {"V_peak", 33.0, "mV"},
                              {"V_reset", -60.0, "mV"},
                              {"t_ref", 0.0, "ms"},
                              {"g_L", 30.0, "nS"},
                              {"C_m", 281.0, "pF"},
                              {"E_L", -70.6, "mV"},
                              {"Delta_T", 2.0, "mV"},
                              {"tau_w", 144.0, "ms"},
                              {"tau_z", 40.0, "ms"},
                              {"tau_V_th", 50.0, "ms"},
                              {"V_th_max", 30.4, "mV"},
                              {"V_th_rest", -50.4, "mV"},
                              {"tau_u_bar_plus", 7.0, "ms"},
                              {"tau_u_bar_minus", 10.0, "ms"},
                              {"tau_u_bar_bar", 500.0, "ms"},
                              {"a", 4.0, "nS"},
                              {"b", 80.5, "pA"},
                              {"I_sp", 400.0, "pA"},
                              {"I_e", 0.0, "pA"},
                              {"gsl_error_tol", 1e-6, ""},
                              {"t_clamp", 2.0, "ms"},
                              {"V_clamp", 33.0, "mV"},
                              {"tau_minus", 20.0, "ms"},
                              {"tau_minus_triplet", 110.0, "ms"},
                              {"I_stim", 0.0, "pA"},
                              {"integration_step", 0.0, "ms"}};
      v.insert(v.end(), clopath_variables().begin(), clopath_variables().end());
      return v;
    }();
    return vars;
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<ClopathState>(g.size());
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    aeif::validate_membrane<layout>(g, i);
    if (!(v(V_th_max) >= v(V_th_rest))) throw bad_value("V_th_max", v(V_th_max), ">= V_th_rest");
    if (!(v(t_clamp) >= 0)) throw bad_value("t_clamp", v(t_clamp), ">= 0");
    for (const int k : {tau_z, tau_V_th, tau_u_bar_plus, tau_u_bar_minus, tau_u_bar_bar})
      if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name, v(k), "> 0");
    if (!(v(A_LTD + 2) > 0)) throw bad_value("u_ref_squared", v(A_LTD + 2), "> 0");
  }
  void calibrate(NeuronGroup& g, double h) const override {
    ode_neuron::start_steps(g, integration_step, h);
    g.second_counters.resize(g.size(), 0);
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifPscDeltaClopath>(g, ctx); }

  // After each accepted solver step, NEST's rules: bounds, the step's input (after the first
  // step, unless held), the spike (from V_peak, or V_th without Delta_T), the clamp's end, and
  // refractoriness.
  template <class S>
  static void after_step(const ode_neuron::Lane& at, S& sys) {
    auto& [g, i, l, y, ctx, lag] = at;
    constexpr int W = ode::lanes;
    check_bounds(g, i, y[l], y[W + l], ctx, lag);
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    int32_t &r = sys.refractory[l], &clamp = sys.clamped[l];
    if (!sys.taken[l]) {
      const InputRow row = ctx.row(lag);
      const uint32_t column = g.first_input + uint32_t(i);
      if (r == 0 && clamp == 0) y[l] = y[l] + (row.excitatory[column] + row.inhibitory[column]);
      row.excitatory[column] = row.inhibitory[column] = 0.0;
      sys.taken[l] = true;
    }
    const double v_peak = v(Delta_T) == 0. ? y[3 * W + l] : v(V_peak);
    if (y[l] >= v_peak && clamp == 0) {
      y[l] = v(V_clamp);
      y[W + l] += v(b);
      y[2 * W + l] = v(I_sp);
      y[3 * W + l] = v(V_th_max);
      const int32_t steps = ctx.steps(v(t_clamp));
      clamp = steps > 0 ? steps + 1 : 0;
      ctx.spike(g, i, lag);
    } else if (clamp == 1) {
      y[l] = v(V_reset);
      clamp = 0;
      const int32_t steps = ctx.steps(v(t_ref));
      r = steps > 0 ? steps + 1 : 0;
    }
    if (r > 0) y[l] = v(V_reset);
  }

  // The step's end: the Clopath history, then the count-downs.
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    constexpr int W = ode::lanes;
    clopath_state(g).write(g, i, A_LTD, ctx.origin + lag + 1, ctx.h, y[l], y[4 * W + l], y[5 * W + l], y[6 * W + l]);
    g.second_counters[i] = std::max(0, sys.clamped[l] - 1);
    g.counters[i] = std::max(0, sys.refractory[l] - 1);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifPscDeltaClopath);

}  // namespace ranvier
