// Leaky integrate-and-fire neuron with alpha-shaped post-synaptic currents, integrated
// exactly on the grid (NEST's iaf_psc_alpha).
#include <cmath>

#include "models/iaf_common.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace iaf;
enum AlphaVar { V_min = n_common, dI_syn_ex, dI_syn_in };
enum Internal {
  P11_ex,
  P21_ex,
  P31_ex,
  P32_ex,
  P11_in,
  P21_in,
  P31_in,
  P32_in,
  P30,
  expm1_tau_m,
  psc_unit_ex,
  psc_unit_in,
  n_internal
};

class IafPscAlpha final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_psc_alpha"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "I_syn_ex", "I_syn_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"V_min", -INFINITY, "mV"});
      v.push_back({"dI_syn_ex", 0.0, "pA/ms"});
      v.push_back({"dI_syn_in", 0.0, "pA/ms"});
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
      g.internals[P11_ex][i] = std::exp(-h / te);
      g.internals[P21_ex][i] = h * std::exp(-h / te);
      const NestIafPropagators ex = nest_iaf_propagators(te, tm, cm, h);
      g.internals[P31_ex][i] = ex.P31, g.internals[P32_ex][i] = ex.P32;
      g.internals[P11_in][i] = std::exp(-h / ti);
      g.internals[P21_in][i] = h * std::exp(-h / ti);
      const NestIafPropagators in = nest_iaf_propagators(ti, tm, cm, h);
      g.internals[P31_in][i] = in.P31, g.internals[P32_in][i] = in.P32;
      g.internals[P30][i] = -tm / cm * std::expm1(-h / tm);
      g.internals[expm1_tau_m][i] = std::expm1(-h / tm);
      // An alpha current of weight w peaks at w: its derivative jumps by w e / tau_syn.
      g.internals[psc_unit_ex][i] = M_E / te;
      g.internals[psc_unit_in][i] = M_E / ti;
    }
    g.share_internals_if_uniform();
  }

  void after_set(NeuronGroup& g, size_t i) const override { sync_rest(g, i); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { update_steps<IafPscAlpha>(g, ctx); }

  // One step of every neuron of the group: V_m - E_L into the scratch array, the currents
  // advanced and the step's input taken. ps is the stride of the internals (0: shared).
  template <size_t ps>
  static void propagate(NeuronGroup& g, const InputRow& in) {
    const size_t n = g.size();
    const StepArrays a = step_arrays(g, in);
    const double* Vmin = g.var(V_min);
    double *dIex = g.var(dI_syn_ex), *dIin = g.var(dI_syn_in);
    const double *p30 = g.internal(P30), *em1 = g.internal(expm1_tau_m);
    const double *p11e = g.internal(P11_ex), *p21e = g.internal(P21_ex);
    const double *p31e = g.internal(P31_ex), *p32e = g.internal(P32_ex);
    const double *p11i = g.internal(P11_in), *p21i = g.internal(P21_in);
    const double *p31i = g.internal(P31_in), *p32i = g.internal(P32_in);
    const double *unit_e = g.internal(psc_unit_ex), *unit_i = g.internal(psc_unit_in);
#pragma omp simd
    for (size_t i = 0; i < n; ++i) {
      const size_t p = i * ps;
      const double rest = a.rest[i];
      const double moved = p30[p] * (a.Istim[i] + a.Ie[i]) + p31e[p] * dIex[i] + p32e[p] * a.Iex[i] +
                           p31i[p] * dIin[i] + p32i[p] * a.Iin[i] + em1[p] * rest + rest;
      const double floor = Vmin[i] - a.EL[i];
      const double clipped = moved < floor ? floor : moved;
      const int32_t r = a.refractory[i];
      a.y[i] = r == 0 ? clipped : rest;
      a.refractory[i] = r - (r != 0);
      a.Iex[i] = p21e[p] * dIex[i] + p11e[p] * a.Iex[i];
      dIex[i] = dIex[i] * p11e[p] + unit_e[p] * a.ex[i];
      a.Iin[i] = p21i[p] * dIin[i] + p11i[p] * a.Iin[i];
      dIin[i] = dIin[i] * p11i[p] + unit_i[p] * a.inh[i];
      a.ex[i] = a.inh[i] = 0.0;
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscAlpha);

}  // namespace ranvier
