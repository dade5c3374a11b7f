// Leaky integrate-and-fire neuron with one alpha-shaped current per receptor port, each with
// its own tau_syn, integrated exactly on the grid (NEST's iaf_psc_alpha_multisynapse).
#include <cmath>

#include "models/iaf_multisynapse.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace multisynapse;
enum AlphaVar { V_min = n_common };

class IafPscAlphaMultisynapse final : public Base<true> {
 public:
  const char* name() const override { return "iaf_psc_alpha_multisynapse"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "I_syn"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables();
      v.push_back({"V_min", -INFINITY, "mV"});
      return v;
    }();
    return vars;
  }

  // Internals: P30, P33 = exp(-h / tau_m), then P11, P21, P31, P32 and the jump of the
  // derivative per unit weight of each port.
  void calibrate(NeuronGroup& g, double h) const override {
    const Receptors& r = receptors(g);
    g.internals.assign(2 + 5 * r.count(), std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      g.internals[1][i] = std::exp(-h / tm);
      g.internals[0][i] = 1 / cm * (1 - g.internals[1][i]) * tm;  // NEST's P30, to the bit
      for (size_t q = 0; q < r.count(); ++q) {
        const double ts = r.tau_syn[q];
        g.internals[2 + 5 * q][i] = std::exp(-h / ts);
        g.internals[3 + 5 * q][i] = h * std::exp(-h / ts);
        const NestIafPropagators P = nest_iaf_propagators(ts, tm, cm, h);
        g.internals[4 + 5 * q][i] = P.P31;
        g.internals[5 + 5 * q][i] = P.P32;
        g.internals[6 + 5 * q][i] = M_E / ts;  // an alpha current of weight w peaks at w
      }
    }
    g.share_internals_if_uniform();
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    multisynapse::update<IafPscAlphaMultisynapse>(g, ctx);
  }

  // One step of the group: each port adds its current's effect on V_m over the step (before
  // the current moves), then the current and its derivative move and take the step's spikes.
  template <size_t ps>
  static void step(NeuronGroup& g, const InputRow& in) {
    const size_t n = g.size();
    double *y = g.scratch.data(), *total = g.var(I_syn);
    Receptors& r = receptors(g);
    membrane<ps>(g, y);
    for (size_t q = 0; q < r.count(); ++q) {
      const double *p11 = g.internal(2 + int(5 * q)), *p21 = g.internal(3 + int(5 * q));
      const double *p31 = g.internal(4 + int(5 * q)), *p32 = g.internal(5 + int(5 * q));
      const double* unit = g.internal(6 + int(5 * q));
      const PortInput w(g, in, uint32_t(q));
      double *I = r.current.data() + q * n, *dI = r.derivative.data() + q * n;
#pragma omp simd
      for (size_t i = 0; i < n; ++i) {
        y[i] += p31[i * ps] * dI[i] + p32[i * ps] * I[i];
        I[i] = p21[i * ps] * dI[i] + p11[i * ps] * I[i];
        dI[i] = dI[i] * p11[i * ps] + unit[i * ps] * w.take(i);
        total[i] += I[i];
      }
    }
    const double *EL = g.var(E_L), *Vmin = g.var(V_min);
    for (size_t i = 0; i < n; ++i) y[i] = std::max(y[i], Vmin[i] - EL[i]);
    hold_refractory(g, y);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscAlphaMultisynapse);

}  // namespace ranvier
