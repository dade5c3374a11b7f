// Repeats every spike it receives, one step later than it arrives (NEST's parrot_neuron).
#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

class ParrotNeuron final : public NeuronModel {
 public:
  const char* name() const override { return "parrot_neuron"; }
  // No recordables, as NEST (its GetDefaults lists none).
  std::optional<std::vector<std::string>> recordables() const override { return std::nullopt; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = {{"tau_minus", 20.0, "ms"}};
    return vars;
  }
  int tau_minus_index() const override { return 0; }
  bool takes_events() const override { return true; }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[0][i] > 0)) throw bad_value("tau_minus", g.vars[0][i], "> 0");
  }
  void calibrate(NeuronGroup& g, double) const override { g.counters.assign(g.size(), 0); }
  // Each event is one spike, whatever its weight: counted per parrot, then repeated in the
  // order of the parrots.
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      for (const InputEvent& e : ctx.events(lag))
        if (e.column - g.first_input < g.size()) ++g.counters[e.column - g.first_input];
      for (size_t i = 0; i < g.size(); ++i)
        for (; g.counters[i] > 0; --g.counters[i]) ctx.spike(g, i, lag);
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(ParrotNeuron);

}  // namespace ranvier
