// Leaky integrate-and-fire neuron with alpha-shaped post-synaptic currents, integrated
// exactly on the grid (NEST's iaf_psc_alpha).
#include <cmath>

#include "models/iaf_common.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace iaf;
enum AlphaVar { V_min = n_common, dI_syn_ex, dI_syn_in };
enum Internal { P11_ex, P21_ex, P31_ex, P32_ex, P11_in, P21_in, P31_in, P32_in, P30,
                expm1_tau_m, psc_unit_ex, psc_unit_in, n_internal };

class IafPscAlpha final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_psc_alpha"; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"V_min", -INFINITY});
      v.push_back({"dI_syn_ex", 0.0});
      v.push_back({"dI_syn_in", 0.0});
      return v;
    }();
    return vars;
  }
  int tau_minus_index() const override { return tau_minus; }
  void validate(NeuronGroup& g, size_t i) const override { validate_common(g, i); }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
      g.internals[P11_ex][i] = std::exp(-h / te);
      g.internals[P21_ex][i] = h * std::exp(-h / te);
      g.internals[P31_ex][i] = propagator_alpha_current(te, tm, cm, h);
      g.internals[P32_ex][i] = propagator_exp_current(te, tm, cm, h);
      g.internals[P11_in][i] = std::exp(-h / ti);
      g.internals[P21_in][i] = h * std::exp(-h / ti);
      g.internals[P31_in][i] = propagator_alpha_current(ti, tm, cm, h);
      g.internals[P32_in][i] = propagator_exp_current(ti, tm, cm, h);
      g.internals[P30][i] = -tm / cm * std::expm1(-h / tm);
      g.internals[expm1_tau_m][i] = std::expm1(-h / tm);
      // An alpha current of weight w peaks at w: its derivative jumps by w e / tau_syn.
      g.internals[psc_unit_ex][i] = M_E / te;
      g.internals[psc_unit_in][i] = M_E / ti;
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const size_t n = g.size();
    const double *V = g.var(V_m), *EL = g.var(E_L), *Ie = g.var(I_e), *Vmin = g.var(V_min);
    double *Iex = g.var(I_syn_ex), *Iin = g.var(I_syn_in), *dIex = g.var(dI_syn_ex), *dIin = g.var(dI_syn_in);
    const double* Istim = g.var(I_stim);
    const auto& P = g.internals;
    int32_t* refractory = g.counters.data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t lid = g.first_lid + uint32_t(i);
        double y = V[i] - EL[i];
        if (refractory[i] == 0) {
          y = P[P30][i] * (Istim[i] + Ie[i]) + P[P31_ex][i] * dIex[i] + P[P32_ex][i] * Iex[i] +
              P[P31_in][i] * dIin[i] + P[P32_in][i] * Iin[i] + P[expm1_tau_m][i] * y + y;
          y = std::max(y, Vmin[i] - EL[i]);
        } else {
          --refractory[i];
        }
        Iex[i] = P[P21_ex][i] * dIex[i] + P[P11_ex][i] * Iex[i];
        dIex[i] *= P[P11_ex][i];
        Iin[i] = P[P21_in][i] * dIin[i] + P[P11_in][i] * Iin[i];
        dIin[i] *= P[P11_in][i];
        dIex[i] += P[psc_unit_ex][i] * in.excitatory[lid];
        dIin[i] += P[psc_unit_in][i] * in.inhibitory[lid];
        in.excitatory[lid] = in.inhibitory[lid] = 0.0;
        finish_step(g, ctx, in, i, lag, y);
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

const NeuronModel& iaf_psc_alpha_model() {
  static const IafPscAlpha model;
  return model;
}

}  // namespace ranvier
