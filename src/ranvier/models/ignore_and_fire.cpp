// Fires at a fixed rate whatever its input (NEST's ignore_and_fire): `phase` is the time to
// the next spike as a fraction of the firing period.
#include <cmath>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var { rate, phase, tau_minus, tau_minus_triplet };

class IgnoreAndFire final : public NeuronModel {
 public:
  const char* name() const override { return "ignore_and_fire"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"rate", 10.0, "Hz"}, {"phase", 1.0, ""}, {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[rate][i] > 0 && std::isfinite(g.vars[rate][i])))
      throw bad_value("rate", g.vars[rate][i], "> 0 and finite");
    if (!(g.vars[phase][i] > 0 && g.vars[phase][i] <= 1)) throw bad_value("phase", g.vars[phase][i], "in (0, 1]");
  }
  void after_set(NeuronGroup& g, size_t i) const override {
    if (i < g.counters.size()) g.counters[i] = -1;  // restart from the (new) phase
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(1, std::vector<double>(g.size()));
    g.counters.resize(g.size(), -1);
    for (size_t i = 0; i < g.size(); ++i) {
      const double period = std::max(1.0, std::round(1000.0 / (g.vars[rate][i] * h)));
      g.internals[0][i] = period;
      if (g.counters[i] < 0) g.counters[i] = int32_t(std::max(1.0, std::round(g.vars[phase][i] * period)));
    }
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const double* period = g.internals[0].data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t column = g.first_input + uint32_t(i);
        in.excitatory[column] = in.inhibitory[column] = in.current[column] = 0.0;
        if (--g.counters[i] == 0) {
          g.counters[i] = int32_t(period[i]);
          ctx.spike(g, i, lag);
        }
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IgnoreAndFire);

}  // namespace ranvier
