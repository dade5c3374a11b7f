// Parameters, membrane equation and spike rule shared by the adaptive exponential
// integrate-and-fire models with conductance synapses (NEST's aeif_cond_exp and
// aeif_cond_alpha; Brette & Gerstner 2005), with NEST's names, defaults and units.
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
  g_ex,
  g_in,
  w,
  I_stim,
  integration_step,
  n_common
};

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.6, "mV"},      {"E_L", -70.6, "mV"},      {"C_m", 281.0, "pF"},
          {"g_L", 30.0, "nS"},       {"t_ref", 0.0, "ms"},      {"V_th", -50.4, "mV"},
          {"V_peak", 0.0, "mV"},     {"V_reset", -60.0, "mV"},  {"E_ex", 0.0, "mV"},
          {"E_in", -85.0, "mV"},     {"tau_syn_ex", 0.2, "ms"}, {"tau_syn_in", 2.0, "ms"},
          {"a", 4.0, "nS"},          {"b", 80.5, "pA"},         {"Delta_T", 2.0, "mV"},
          {"tau_w", 144.0, "ms"},    {"I_e", 0.0, "pA"},        {"gsl_error_tol", 1e-6, ""},
          {"tau_minus", 20.0, "ms"}, {"g_ex", 0.0, "nS"},       {"g_in", 0.0, "nS"},
          {"w", 0.0, "pA"},          {"I_stim", 0.0, "pA"},     {"integration_step", 0.0, "ms"}};
}

inline void validate_common(NeuronGroup& g, size_t i) {
  auto v = [&](int k) { return g.vars[size_t(k)][i]; };
  if (!(v(V_peak) >= v(V_th))) throw bad_value("V_peak", v(V_peak), ">= V_th");
  if (!(v(Delta_T) >= 0)) throw bad_value("Delta_T", v(Delta_T), ">= 0");
  // exp((V_peak - V_th) / Delta_T) must stay finite, with room for what follows.
  if (v(Delta_T) > 0 && (v(V_peak) - v(V_th)) / v(Delta_T) >= std::log(DBL_MAX / 1e20))
    throw bad_value("Delta_T", v(Delta_T), "large enough that exp((V_peak - V_th) / Delta_T) does not overflow");
  if (!(v(V_reset) < v(V_peak))) throw bad_value("V_reset", v(V_reset), "below V_peak");
  if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
  if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
  if (!(v(tau_syn_ex) > 0)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "> 0");
  if (!(v(tau_syn_in) > 0)) throw bad_value("tau_syn_in", v(tau_syn_in), "> 0");
  if (!(v(tau_w) > 0)) throw bad_value("tau_w", v(tau_w), "> 0");
  if (!(v(gsl_error_tol) > 0)) throw bad_value("gsl_error_tol", v(gsl_error_tol), "> 0");
  if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
  if (!(v(g_ex) >= 0)) throw bad_value("g_ex", v(g_ex), ">= 0");
  if (!(v(g_in) >= 0)) throw bad_value("g_in", v(g_in), ">= 0");
}

// The membrane and adaptation equations, for the lanes of a batch. While refractory (the
// lane's counter, which a spike within the step sets) V_m is clamped at V_reset; otherwise it
// enters the equations bounded by V_peak.
struct Membrane {
  static constexpr int W = ode::lanes;
  double E_L[W], C_m[W], g_L[W], V_th[W], V_peak[W], V_reset[W], E_ex[W], E_in[W], a[W], Delta_T[W], tau_w[W],
      I[W];  // I = I_e + I_stim
  int32_t refractory[W];
  void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    E_L[l] = v(aeif::E_L), C_m[l] = v(aeif::C_m), g_L[l] = v(aeif::g_L), V_th[l] = v(aeif::V_th);
    V_peak[l] = v(aeif::V_peak), V_reset[l] = v(aeif::V_reset), E_ex[l] = v(aeif::E_ex), E_in[l] = v(aeif::E_in);
    a[l] = v(aeif::a), Delta_T[l] = v(aeif::Delta_T), tau_w[l] = v(aeif::tau_w), I[l] = v(aeif::I_e) + i_stim;
    refractory[l] = g.counters[i];
  }
  // dV/dt and dw/dt of lane l for conductances g_ex, g_in.
  [[gnu::always_inline]] void derivatives(int l, double v, double g_ex, double g_in, double w, double& dv,
                                          double& dw) const {
    const bool clamped = refractory[l] > 0;
    const double V = clamped ? V_reset[l] : std::min(v, V_peak[l]);
    const double dt = Delta_T[l] == 0.0 ? 1.0 : Delta_T[l];
    const double spike = Delta_T[l] == 0.0 ? 0.0 : g_L[l] * Delta_T[l] * ode::exp((V - V_th[l]) / dt);
    const double change =
        (-g_L[l] * (V - E_L[l]) + spike - g_ex * (V - E_ex[l]) - g_in * (V - E_in[l]) - w + I[l]) / C_m[l];
    dv = clamped ? 0.0 : change;
    dw = (a[l] * (V - E_L[l]) - w) / tau_w[l];
  }
};

// The rules both aeif models share: NEST's tolerance for them (gsl_error_tol, absolute and
// relative to h dy/dt), and the spike rule applied after every accepted solver step, so that
// adaptation jumps by b at once and a neuron without refractory time may fire more than once
// per step. index_w is the position of w in the model's state vector.
template <int index_w>
struct Rules {
  static ode::Tolerance tolerance() { return ode::on_derivatives(); }
  static void set_tolerance(const NeuronGroup& g, size_t i, int l, ode::Tolerance& tol) {
    tol.eps_abs[l] = tol.eps_rel[l] = g.vars[gsl_error_tol][i];
  }
  template <class System>
  static void after_step(const ode_neuron::Lane& at, System& sys) {
    auto& [g, i, l, y, ctx, lag] = at;
    constexpr int W = ode::lanes;
    check_bounds(g, i, y[l], y[index_w * W + l], ctx, lag);
    const double v_spike = g.vars[Delta_T][i] > 0 ? g.vars[V_peak][i] : g.vars[V_th][i];
    int32_t& r = sys.m.refractory[l];
    if (r > 0) {
      y[l] = g.vars[V_reset][i];
    } else if (y[l] >= v_spike) {
      y[l] = g.vars[V_reset][i];
      y[index_w * W + l] += g.vars[b][i];
      // One more than the refractory steps: the count-down after the step follows at once.
      const int32_t steps = ctx.steps(g.vars[t_ref][i]);
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
