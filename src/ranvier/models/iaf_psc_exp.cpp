// Leaky integrate-and-fire neuron with exponentially decaying post-synaptic currents,
// integrated exactly on the grid (NEST's iaf_psc_exp).
#include <cmath>

#include "models/iaf_common.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace iaf;
enum Internal { P11_ex, P21_ex, P11_in, P21_in, P20, expm1_tau_m, n_internal };

class IafPscExp final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_psc_exp"; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = common_variables();
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
      g.internals[P21_ex][i] = propagator_exp_current(te, tm, cm, h);
      g.internals[P11_in][i] = std::exp(-h / ti);
      g.internals[P21_in][i] = propagator_exp_current(ti, tm, cm, h);
      g.internals[P20][i] = -tm / cm * std::expm1(-h / tm);
      g.internals[expm1_tau_m][i] = std::expm1(-h / tm);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const size_t n = g.size();
    const double *V = g.var(V_m), *EL = g.var(E_L), *Ie = g.var(I_e);
    double *Iex = g.var(I_syn_ex), *Iin = g.var(I_syn_in);
    const double* Istim = g.var(I_stim);
    const auto& P = g.internals;
    int32_t* refractory = g.counters.data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t lid = g.first_lid + uint32_t(i);
        double y = V[i] - EL[i];
        if (refractory[i] == 0) {
          y = P[P20][i] * (Istim[i] + Ie[i]) + P[P21_ex][i] * Iex[i] + P[P21_in][i] * Iin[i] +
              P[expm1_tau_m][i] * y + y;
        } else {
          --refractory[i];
        }
        Iex[i] = Iex[i] * P[P11_ex][i] + in.excitatory[lid];
        Iin[i] = Iin[i] * P[P11_in][i] + in.inhibitory[lid];
        in.excitatory[lid] = in.inhibitory[lid] = 0.0;
        finish_step(g, ctx, in, i, lag, y);
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

const NeuronModel& iaf_psc_exp_model() {
  static const IafPscExp model;
  return model;
}

}  // namespace ranvier
