// Leaky integrate-and-fire neuron with one exponentially decaying current per receptor port,
// each with its own tau_syn, integrated exactly on the grid (NEST's iaf_psc_exp_multisynapse).
#include <cmath>

#include "models/iaf_multisynapse.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace multisynapse;

class IafPscExpMultisynapse final : public Base<false> {
 public:
  const char* name() const override { return "iaf_psc_exp_multisynapse"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "I_syn"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = common_variables();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    Base::validate(g, i);
    differ(receptors(g).tau_syn, g.vars[tau_m][i]);
  }
  void validate_lists(const ListKind& kind, const NeuronGroup* g) const override {
    Base::validate_lists(kind, g);
    if (g)
      for (double tm : g->vars[tau_m]) differ(kind.at("tau_syn"), tm);
  }
  // NEST's condition: its propagator has no limit for equal time constants.
  static void differ(const std::vector<double>& tau_syn, double tm) {
    for (double t : tau_syn)
      if (t == tm) throw bad_value("tau_syn", t, "different from tau_m (every entry)");
  }

  // Internals: P20, P22 = exp(-h / tau_m), then P11 and P21 of each port.
  void calibrate(NeuronGroup& g, double h) const override {
    const Receptors& r = receptors(g);
    g.internals.assign(2 + 2 * r.count(), std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      g.internals[1][i] = std::exp(-h / tm);
      g.internals[0][i] = tm / cm * (1.0 - g.internals[1][i]);  // NEST's P20, to the bit
      for (size_t q = 0; q < r.count(); ++q) {
        g.internals[2 + 2 * q][i] = std::exp(-h / r.tau_syn[q]);
        g.internals[3 + 2 * q][i] = nest_iaf_propagators(r.tau_syn[q], tm, cm, h).P32;
      }
    }
    g.share_internals_if_uniform();
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    multisynapse::update<IafPscExpMultisynapse>(g, ctx);
  }

  // One step of the group: each port adds its current's effect on V_m over the step (before
  // the current moves), decays and takes the step's spikes.
  template <size_t ps>
  static void step(NeuronGroup& g, const InputRow& in) {
    const size_t n = g.size();
    double *y = g.scratch.data(), *total = g.var(I_syn);
    Receptors& r = receptors(g);
    membrane<ps>(g, y);
    for (size_t q = 0; q < r.count(); ++q) {
      const double *p11 = g.internal(2 + int(2 * q)), *p21 = g.internal(3 + int(2 * q));
      const PortInput w(g, in, uint32_t(q));
      double* I = r.current.data() + q * n;
#pragma omp simd
      for (size_t i = 0; i < n; ++i) {
        y[i] += p21[i * ps] * I[i];
        I[i] = I[i] * p11[i * ps] + w.take(i);
        total[i] += I[i];
      }
    }
    hold_refractory(g, y);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscExpMultisynapse);

}  // namespace ranvier
