// Leaky integrate-and-fire neuron with alpha-shaped post-synaptic currents and precise spike
// times (NEST's iaf_psc_alpha_ps): input acts at its offset within the step, and the
// threshold crossing is found by regula falsi.
#include <cmath>

#include "models/precise_psc.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace iaf;
enum AlphaPsVar { dI_syn_ex = precise::n_psc, dI_syn_in };
enum Internal { P30, P31_ex, P32_ex, P31_in, P32_in, expm1_tau_m, exp_tau_ex, exp_tau_in, n_internal };

// One cell of iaf_psc_alpha_ps for the step; an alpha current of weight w peaks at w.
struct AlphaCell : precise::PscCell<AlphaCell> {
  double dI_ex, dI_in;
  AlphaCell(const NeuronGroup& group, size_t i)
      : PscCell(group, i), dI_ex(group.vars[dI_syn_ex][i]), dI_in(group.vars[dI_syn_in][i]) {}
  void store(NeuronGroup& group, size_t i) const {
    PscCell::store(group, i);
    group.vars[dI_syn_ex][i] = dI_ex;
    group.vars[dI_syn_in][i] = dI_in;
  }
  void full_step(bool refractory, double h) {
    if (!refractory) {
      U = internal(P30) * (I_e + y0) + internal(P31_ex) * dI_ex + internal(P32_ex) * I_ex + internal(P31_in) * dI_in +
          internal(P32_in) * I_in + internal(expm1_tau_m) * U + U;
      U = U < U_min ? U_min : U;
    }
    decay(internal(exp_tau_ex), internal(exp_tau_in), h);
  }
  double U_after(double dt) const {
    const double em1 = std::expm1(-dt / tau_m);
    return -tau_m / C_m * em1 * (I_e + y0) + propagator_alpha_current(tau_ex, tau_m, C_m, dt) * dI_ex +
           propagator_exp_current(tau_ex, tau_m, C_m, dt) * I_ex +
           propagator_alpha_current(tau_in, tau_m, C_m, dt) * dI_in +
           propagator_exp_current(tau_in, tau_m, C_m, dt) * I_in + U * em1 + U;
  }
  void propagate(double dt, bool refractory) {
    if (!refractory) {
      U = U_after(dt);
      U = U < U_min ? U_min : U;
    }
    decay(std::exp(-dt / tau_ex), std::exp(-dt / tau_in), dt);
  }
  void add(double w) {
    if (w >= 0.0)
      dI_ex += M_E / tau_ex * w;
    else
      dI_in += M_E / tau_in * w;
  }

 private:
  void decay(double e_ex, double e_in, double dt) {
    I_ex = e_ex * dt * dI_ex + e_ex * I_ex;
    dI_ex = e_ex * dI_ex;
    I_in = e_in * dt * dI_in + e_in * I_in;
    dI_in = e_in * dI_in;
  }
};

class IafPscAlphaPs final : public precise::PscModel<AlphaCell> {
 public:
  const char* name() const override { return "iaf_psc_alpha_ps"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"I_syn_ex", "I_syn_in", "V_m"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = precise::psc_variables();
      v.push_back({"dI_syn_ex", 0.0, "pA/ms"});
      v.push_back({"dI_syn_in", 0.0, "pA/ms"});
      return v;
    }();
    return vars;
  }
  void calibrate(NeuronGroup& g, double h) const override {
    prepare(g, n_internal);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
      g.internals[P30][i] = -tm / cm * std::expm1(-h / tm);
      g.internals[P31_ex][i] = propagator_alpha_current(te, tm, cm, h);
      g.internals[P32_ex][i] = propagator_exp_current(te, tm, cm, h);
      g.internals[P31_in][i] = propagator_alpha_current(ti, tm, cm, h);
      g.internals[P32_in][i] = propagator_exp_current(ti, tm, cm, h);
      g.internals[expm1_tau_m][i] = std::expm1(-h / tm);
      g.internals[exp_tau_ex][i] = std::exp(-h / te);
      g.internals[exp_tau_in][i] = std::exp(-h / ti);
    }
    g.share_internals_if_uniform();
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscAlphaPs);

}  // namespace ranvier
