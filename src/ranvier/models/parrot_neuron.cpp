// Repeats every spike it receives, one step later than it arrives (NEST's parrot_neuron).
#include <cmath>

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
  bool counts_spikes() const override { return true; }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[0][i] > 0)) throw bad_value("tau_minus", g.vars[0][i], "> 0");
  }
  void calibrate(NeuronGroup&, double) const override {}
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t column = g.first_input + uint32_t(i);
        const long count = std::lround(in.excitatory[column]);
        in.excitatory[column] = in.inhibitory[column] = in.current[column] = 0.0;
        for (long k = 0; k < count; ++k) ctx.spike(g, i, lag);
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(ParrotNeuron);

}  // namespace ranvier
