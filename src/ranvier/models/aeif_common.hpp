// Parameters, membrane equation and spike rule shared by the adaptive exponential
// integrate-and-fire models with conductance synapses (NEST's aeif_cond_exp, aeif_cond_alpha
// and the multisynapse ones; Brette & Gerstner 2005), with NEST's names, defaults and units.
#pragma once
#include <cfloat>
#include <cmath>
#include <sstream>
#include <vector>

#include "models/ode_neuron.hpp"

namespace ranvier::aeif {

enum Var {
  V_m,
  E_L,
  C_m,
  g_L,
  t_ref,
  V_th,
  V_peak,
  V_reset,
  E_ex,
  E_in,
  tau_syn_ex,
  tau_syn_in,
  a,
  b,
  Delta_T,
  tau_w,
  I_e,
  gsl_error_tol,
  tau_minus,
  tau_minus_triplet,
  g_ex,
  g_in,
  w,
  I_stim,
  integration_step,
  n_common
};

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.6, "mV"},
          {"E_L", -70.6, "mV"},
          {"C_m", 281.0, "pF"},
          {"g_L", 30.0, "nS"},
          {"t_ref", 0.0, "ms"},
          {"V_th", -50.4, "mV"},
          {"V_peak", 0.0, "mV"},
          {"V_reset", -60.0, "mV"},
          {"E_ex", 0.0, "mV"},
          {"E_in", -85.0, "mV"},
          {"tau_syn_ex", 0.2, "ms"},
          {"tau_syn_in", 2.0, "ms"},
          {"a", 4.0, "nS"},
          {"b", 80.5, "pA"},
          {"Delta_T", 2.0, "mV"},
          {"tau_w", 144.0, "ms"},
          {"I_e", 0.0, "pA"},
          {"gsl_error_tol", 1e-6, ""},
          {"tau_minus", 20.0, "ms"},
          {"tau_minus_triplet", 110.0, "ms"},
          {"g_ex", 0.0, "nS"},
          {"g_in", 0.0, "nS"},
          {"w", 0.0, "pA"},
          {"I_stim", 0.0, "pA"},
          {"integration_step", 0.0, "ms"}};
}

// Where a model keeps what the membrane equations, the spike rule and the common checks read:
// aeif_cond_alpha's and aeif_cond_exp's variables by default (the multisynapse models, which
// lack the ex/in synapses, list theirs).
struct Layout {
  int E_L = aeif::E_L, C_m = aeif::C_m, g_L = aeif::g_L, t_ref = aeif::t_ref, V_th = aeif::V_th, V_peak = aeif::V_peak,
      V_reset = aeif::V_reset, a = aeif::a, b = aeif::b, Delta_T = aeif::Delta_T, tau_w = aeif::tau_w, I_e = aeif::I_e,
      gsl_error_tol = aeif::gsl_error_tol, tau_minus = aeif::tau_minus;
};

// The checks of the membrane's and the spike rule's parameters (NEST's).
template <Layout vars = Layout{}>
void validate_membrane(const NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(vars.V_peak) >= v(vars.V_th))) throw bad_value("V_peak", v(vars.V_peak), ">= V_th");
  if (!(v(vars.Delta_T) >= 0)) throw bad_value("Delta_T", v(vars.Delta_T), ">= 0");
  // exp((V_peak - V_th) / Delta_T) must stay finite, with room for what follows.
  if (v(vars.Delta_T) > 0 && (v(vars.V_peak) - v(vars.V_th)) / v(vars.Delta_T) >= std::log(DBL_MAX / 1e20))
    throw bad_value("Delta_T", v(vars.Delta_T), "large enough that exp((V_peak - V_th) / Delta_T) does not overflow");
  if (!(v(vars.V_reset) < v(vars.V_peak))) throw bad_value("V_reset", v(vars.V_reset), "below V_peak");
  if (!(v(vars.C_m) > 0)) throw bad_value("C_m", v(vars.C_m), "> 0");
  if (!(v(vars.t_ref) >= 0)) throw bad_value("t_ref", v(vars.t_ref), ">= 0");
  if (!(v(vars.tau_w) > 0)) throw bad_value("tau_w", v(vars.tau_w), "> 0");
  if (!(v(vars.gsl_error_tol) > 0)) throw bad_value("gsl_error_tol", v(vars.gsl_error_tol), "> 0");
  if (!(v(vars.tau_minus) > 0)) throw bad_value("tau_minus", v(vars.tau_minus), "> 0");
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  validate_membrane(g, i);
  if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
  if (!(v(g_ex) >= 0)) throw bad_value("g_ex", v(g_ex), ">= 0");
  if (!(v(g_in) >= 0)) throw bad_value("g_in", v(g_in), ">= 0");
}

// The membrane and adaptation equations, for the lanes of a batch. While refractory (the
// lane's counter, which a spike within the step sets) V_m is clamped at V_reset; otherwise it
// enters the equations bounded by V_peak.
template <Layout vars = Layout{}>
struct Membrane {
  static constexpr int W = ode::lanes;
  double E_L[W], C_m[W], g_L[W], V_th[W], V_peak[W], V_reset[W], a[W], Delta_T[W], tau_w[W];
  double I_e[W], I_stim[W], I_sic[W];  // added one by one, as NEST does (I_sic: aeif_cond_alpha_astro's)
  int32_t refractory[W];
  void load(const NeuronGroup& g, size_t i, int l, double i_stim, double i_sic = 0.0) {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    E_L[l] = v(vars.E_L), C_m[l] = v(vars.C_m), g_L[l] = v(vars.g_L), V_th[l] = v(vars.V_th);
    V_peak[l] = v(vars.V_peak), V_reset[l] = v(vars.V_reset);
    a[l] = v(vars.a), Delta_T[l] = v(vars.Delta_T), tau_w[l] = v(vars.tau_w);
    I_e[l] = v(vars.I_e), I_stim[l] = i_stim, I_sic[l] = i_sic;
    refractory[l] = g.counters[i];
  }
  // dV/dt and dw/dt of lane l; synaptic(V, x) adds the synaptic terms to x, the leak and spike
  // currents at V.
  template <class Synaptic>
  [[gnu::always_inline]] void derivatives(int l, double v, double w, Synaptic synaptic, double& dv, double& dw) const {
    const bool clamped = refractory[l] > 0;
    const double V = clamped ? V_reset[l] : std::min(v, V_peak[l]);
    const double dt = Delta_T[l] == 0.0 ? 1.0 : Delta_T[l];
    const double spike = Delta_T[l] == 0.0 ? 0.0 : g_L[l] * Delta_T[l] * ode::exp((V - V_th[l]) / dt);
    const double change = (synaptic(V, -g_L[l] * (V - E_L[l]) + spike) - w + I_e[l] + I_stim[l] + I_sic[l]) / C_m[l];
    dv = clamped ? 0.0 : change;
    dw = (a[l] * (V - E_L[l]) - w) / tau_w[l];
  }
};

// aeif_cond_alpha's and aeif_cond_exp's synapses: an excitatory and an inhibitory conductance.
struct ExIn {
  static constexpr int W = ode::lanes;
  double E_ex[W], E_in[W];
  void load(const NeuronGroup& g, size_t i, int l) { E_ex[l] = g.vars[aeif::E_ex][i], E_in[l] = g.vars[aeif::E_in][i]; }
  // the synaptic terms of lane l for conductances g_ex, g_in
  [[gnu::always_inline]] auto terms(int l, double g_ex, double g_in) const {
    return [=, this](double V, double x) { return x - g_ex * (V - E_ex[l]) - g_in * (V - E_in[l]); };
  }
};

// The rules the aeif models share: NEST's tolerance for them (gsl_error_tol, absolute and
// relative to h dy/dt), and the spike rule applied after every accepted solver step, so that
// adaptation jumps by b at once and a neuron without refractory time may fire more than once
// per step. index_w is the position of w in the model's state vector.
template <int index_w, Layout vars = Layout{}>
struct Rules {
  static ode::Tolerance tolerance() { return ode::on_derivatives(); }
  static void set_tolerance(const NeuronGroup& g, size_t i, int l, ode::Tolerance& tol) {
    tol.eps_abs[l] = tol.eps_rel[l] = g.vars[size_t(vars.gsl_error_tol)][i];
  }
  template <class System>
  static void after_step(const ode_neuron::Lane& at, System& sys) {
    auto& [g, i, l, y, ctx, lag] = at;
    constexpr int W = ode::lanes;
    check_bounds(g, i, y[l], y[index_w * W + l], ctx, lag);
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    const double v_spike = v(vars.Delta_T) > 0 ? v(vars.V_peak) : v(vars.V_th);
    int32_t& r = sys.m.refractory[l];
    if (r > 0) {
      y[l] = v(vars.V_reset);
    } else if (y[l] >= v_spike) {
      y[l] = v(vars.V_reset);
      y[index_w * W + l] += v(vars.b);
      // One more than the refractory steps: the count-down after the step follows at once.
      const int32_t steps = ctx.steps(v(vars.t_ref));
      r = steps > 0 ? steps + 1 : 0;
      ctx.spike(g, i, lag);
    }
  }
  // NEST's NumericalInstability, on its bounds: V_m may run off upwards (a spike) but not below
  // -1000 mV, and w must stay within [-1e6, 1e6] pA.
  static void check_bounds(const NeuronGroup& g, size_t i, double v, double w_now, UpdateContext& ctx, int lag) {
    if (v >= -1e3 && w_now >= -1e6 && w_now <= 1e6) return;
    std::ostringstream msg;
    msg << "numerical instability while updating " << g.model->name() << " " << g.gids[i] << ": ";
    if (!(v >= -1e3))
      msg << "V_m = " << v << " mV, below -1000 mV";
    else
      msg << "w = " << w_now << " pA, outside [-1e6, 1e6] pA";
    msg << ", in the step ending at t = " << double(ctx.origin + lag + 1) * ctx.h << " ms";
    ctx.fail(std::make_exception_ptr(NumericalInstabilityError(msg.str())));
  }
  // After the step: the refractory count-down.
  template <class System>
  static void count_down(NeuronGroup& g, size_t i, const System& sys, int l) {
    g.counters[i] = std::max(0, sys.m.refractory[l] - 1);
  }
};

}  // namespace ranvier::aeif
