// Multi-timescale adaptive threshold neuron with exponential post-synaptic currents (NEST's
// mat2_psc_exp; Kobayashi et al. 2009), integrated exactly on the grid. The membrane is
// never reset: a spike raises the threshold by alpha_1 and alpha_2, which decay with tau_1
// and tau_2, and blocks further spikes (not the integration) for t_ref. amat2_psc_exp
// (Yamauchi et al. 2011) adds a threshold component V_th_v driven by the membrane potential:
// dV_th_v/dt = -V_th_v / tau_v + V_th_dv, dV_th_dv/dt = -V_th_dv / tau_v + beta dV_m/dt / tau_v,
// integrated exactly with the membrane (NEST's propagators).
#include <cmath>

#include "models/iaf_common.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_L,
  C_m,
  tau_m,
  tau_syn_ex,
  tau_syn_in,
  t_ref,
  tau_1,
  tau_2,
  alpha_1,
  alpha_2,
  omega,
  I_e,
  tau_minus,
  tau_minus_triplet,
  V_th_alpha_1,
  V_th_alpha_2,
  V_th,
  I_syn_ex,
  I_syn_in,
  I_stim,
  V_rel,  // hidden: V_m - E_L as the step keeps it (iaf::relative_potential)
  beta,   // amat2_psc_exp's
  tau_v,
  V_th_v,
  V_th_dv
};
enum Internal { P11_ex, P11_in, P21_ex, P21_in, P20, P22_expm1, P11_th, P22_th, n_mat2 };
// amat2_psc_exp's: the voltage component and its derivative from the currents, V_m and themselves
enum VoltageInternal { P60 = n_mat2, P61, P62, P63, P66, P70, P71, P72, P73, P76, n_amat2 };

class Mat2PscExp : public NeuronModel {
 public:
  const char* name() const override { return "mat2_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "V_th"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", -70.0, "mV"},        {"E_L", -70.0, "mV"},        {"C_m", 100.0, "pF"},
        {"tau_m", 5.0, "ms"},        {"tau_syn_ex", 1.0, "ms"},   {"tau_syn_in", 3.0, "ms"},
        {"t_ref", 2.0, "ms"},        {"tau_1", 10.0, "ms"},       {"tau_2", 200.0, "ms"},
        {"alpha_1", 37.0, "mV"},     {"alpha_2", 2.0, "mV"},      {"omega", -51.0, "mV"},
        {"I_e", 0.0, "pA"},          {"tau_minus", 20.0, "ms"},   {"tau_minus_triplet", 110.0, "ms"},
        {"V_th_alpha_1", 0.0, "mV"}, {"V_th_alpha_2", 0.0, "mV"}, {"V_th", -51.0, "mV"},
        {"I_syn_ex", 0.0, "pA"},     {"I_syn_in", 0.0, "pA"},     {"I_stim", 0.0, "pA"},
        iaf::relative_potential()};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    for (int k : {tau_m, tau_syn_ex, tau_syn_in, t_ref, tau_1, tau_2, tau_minus})
      if (!(v(k) > 0)) throw bad_value(variables()[size_t(k)].name.c_str(), v(k), "> 0");
    // The propagators assume distinct membrane and synaptic time constants, as NEST's do.
    if (v(tau_syn_ex) == v(tau_m)) throw bad_value("tau_syn_ex", v(tau_syn_ex), "different from tau_m");
    if (v(tau_syn_in) == v(tau_m)) throw bad_value("tau_syn_in", v(tau_syn_in), "different from tau_m");
  }
  // The threshold is a function of the state: kept up to date for GetStatus and multimeters.
  void after_set(NeuronGroup& g, size_t i) const override {
    g.vars[V_th][i] = g.vars[omega][i] + g.vars[V_th_alpha_1][i] + g.vars[V_th_alpha_2][i];
    iaf::sync_rest(g, i, V_rel);
  }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_mat2, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
      g.internals[P11_ex][i] = std::exp(-h / te);
      g.internals[P11_in][i] = std::exp(-h / ti);
      g.internals[P21_ex][i] = propagator_exp_current(te, tm, cm, h);
      g.internals[P21_in][i] = propagator_exp_current(ti, tm, cm, h);
      g.internals[P22_expm1][i] = std::expm1(-h / tm);
      g.internals[P20][i] = -tm / cm * std::expm1(-h / tm);
      g.internals[P11_th][i] = std::exp(-h / g.vars[tau_1][i]);
      g.internals[P22_th][i] = std::exp(-h / g.vars[tau_2][i]);
    }
    calibrate_voltage_threshold(g, h);
    g.share_internals_if_uniform();
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    if (g.shared_internals)
      update_steps<0, false>(g, ctx);
    else
      update_steps<1, false>(g, ctx);
  }

 protected:
  virtual void calibrate_voltage_threshold(NeuronGroup&, double) const {}
  // adaptive: amat2_psc_exp's voltage-driven threshold component
  template <size_t ps, bool adaptive>  // ps: stride of the internals (0: shared by all neurons)
  static void update_steps(NeuronGroup& g, UpdateContext& ctx) {
    double *v = g.var(V_m), *rest = g.var(V_rel), *th1 = g.var(V_th_alpha_1), *th2 = g.var(V_th_alpha_2),
           *vth = g.var(V_th), *iex = g.var(I_syn_ex), *iin = g.var(I_syn_in), *stim = g.var(I_stim);
    const double *e_l = g.var(E_L), *ie = g.var(I_e), *om = g.var(omega), *a1 = g.var(alpha_1), *a2 = g.var(alpha_2),
                 *tref = g.var(t_ref);
    const double *p11e = g.internal(P11_ex), *p11i = g.internal(P11_in), *p21e = g.internal(P21_ex),
                 *p21i = g.internal(P21_in), *p20 = g.internal(P20), *p22 = g.internal(P22_expm1),
                 *p11th = g.internal(P11_th), *p22th = g.internal(P22_th);
    int32_t* r = g.counters.data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      for (size_t i = 0; i < g.size(); ++i) {
        const size_t p = i * ps;
        double y = rest[i];
        double voltage_component = 0.0;
        if constexpr (adaptive) {  // from the state at the step's start, as NEST
          double &thv = g.vars[V_th_v][i], &thdv = g.vars[V_th_dv][i];
          const double drive = ie[i] + stim[i];
          const auto P = [&](int k) { return g.internals[size_t(k)][p]; };
          const double next_v =
              drive * P(P70) + iex[i] * P(P71) + iin[i] * P(P72) + y * P(P73) + thdv * P(P76) + thv * P(P66);
          thdv = drive * P(P60) + iex[i] * P(P61) + iin[i] * P(P62) + y * P(P63) + thdv * P(P66);
          thv = voltage_component = next_v;
        }
        y = y * p22[p] + y + iex[i] * p21e[p] + iin[i] * p21i[p] + (ie[i] + stim[i]) * p20[p];
        th1[i] *= p11th[p];
        th2[i] *= p22th[p];
        iex[i] = iex[i] * p11e[p] + ex[i];
        iin[i] = iin[i] * p11i[p] + inh[i];
        ex[i] = inh[i] = 0.0;
        if (r[i] == 0) {
          if (y >= om[i] - e_l[i] + th2[i] + th1[i] + voltage_component) {
            r[i] = ctx.steps(tref[i]);
            th1[i] += a1[i];
            th2[i] += a2[i];
            ctx.spike(g, i, lag);
          }
        } else {
          --r[i];
        }
        rest[i] = y;
        v[i] = y + e_l[i];
        vth[i] = om[i] + th1[i] + th2[i] + voltage_component;
        stim[i] = current[i];
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }
};

class Amat2PscExp final : public Mat2PscExp {
 public:
  const char* name() const override { return "amat2_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"I_syn_ex", "I_syn_in", "V_m", "V_th", "V_th_v"};
  }
  // NEST's defaults, which differ from mat2_psc_exp's.
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [this] {
      std::vector<Variable> v = Mat2PscExp::own_variables();
      for (auto [k, value] :
           {std::pair{C_m, 200.0}, {tau_m, 10.0}, {alpha_1, 10.0}, {alpha_2, 0.0}, {omega, -65.0}, {V_th, -65.0}})
        v[size_t(k)].default_value = value;
      v.insert(v.end(),
               {{"beta", 0.0, "1/ms"}, {"tau_v", 5.0, "ms"}, {"V_th_v", 0.0, "mV"}, {"V_th_dv", 0.0, "mV/ms"}});
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    Mat2PscExp::validate(g, i);
    const double tv = g.vars[tau_v][i];
    if (!(tv > 0)) throw bad_value("tau_v", tv, "> 0");
    for (int k : {tau_m, tau_syn_ex, tau_syn_in})  // the propagators divide by the differences
      if (tv == g.vars[size_t(k)][i]) throw bad_value("tau_v", tv, "different from tau_m, tau_syn_ex and tau_syn_in");
  }
  void after_set(NeuronGroup& g, size_t i) const override {
    g.vars[V_th][i] = g.vars[omega][i] + g.vars[V_th_alpha_1][i] + g.vars[V_th_alpha_2][i] + g.vars[V_th_v][i];
    iaf::sync_rest(g, i, V_rel);
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    if (g.shared_internals)
      update_steps<0, true>(g, ctx);
    else
      update_steps<1, true>(g, ctx);
  }

 protected:
  // NEST's propagators of the voltage component (amat2_psc_exp.cpp, pre_run_hook).
  void calibrate_voltage_threshold(NeuronGroup& g, double h) const override {
    g.internals.resize(n_amat2, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      const double c = g.vars[C_m][i], b = g.vars[beta][i], tm = g.vars[tau_m][i];
      const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i], tv = g.vars[tau_v][i];
      const double eE = std::exp(-h / te), eI = std::exp(-h / ti), em = std::exp(-h / tm), eV = std::exp(-h / tv);
      // the component's response to a current decaying with tau (te or ti), of decay e
      const auto dv = [&](double tau, double e) {
        return (b * tau * tm * tv * (eV * (-tau + tm) + em * (tau - tv) + e * (-tm + tv))) /
               (c * (tau - tm) * (tau - tv) * (tm - tv));
      };
      const auto v = [&](double tau, double e) {
        return (b * tau * tm * tv *
                ((em * tm * std::pow(tau - tv, 2) - e * tau * std::pow(tm - tv, 2)) * tv -
                 eV * (tau - tm) * (h * (tau - tv) * (tm - tv) + tau * tm * tv - std::pow(tv, 3)))) /
               (c * (tau - tm) * std::pow(tau - tv, 2) * std::pow(tm - tv, 2));
      };
      g.internals[P60][i] = (b * (em - eV) * tm * tv) / (c * (tm - tv));
      g.internals[P61][i] = dv(te, eE);
      g.internals[P62][i] = dv(ti, eI);
      g.internals[P63][i] = (b * (-em + eV) * tv) / (tm - tv);
      g.internals[P66][i] = eV;
      g.internals[P70][i] =
          (b * tm * tv * (em * tm * tv - eV * (h * (tm - tv) + tm * tv))) / (c * std::pow(tm - tv, 2));
      g.internals[P71][i] = v(te, eE);
      g.internals[P72][i] = v(ti, eI);
      g.internals[P73][i] = (b * tv * (-(em * tm * tv) + eV * (h * (tm - tv) + tm * tv))) / std::pow(tm - tv, 2);
      g.internals[P76][i] = eV * h;
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(Mat2PscExp);
RANVIER_REGISTER_NEURON_MODEL(Amat2PscExp);

}  // namespace ranvier
