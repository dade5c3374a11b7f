// Repeats every spike it receives at receptor_type 0 in the step it arrives (NEST's
// parrot_neuron), or at its precise time, earliest first (NEST's parrot_neuron_ps).
#include <algorithm>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

template <bool precise>
class Parrot final : public NeuronModel {
 public:
  const char* name() const override { return precise ? "parrot_neuron_ps" : "parrot_neuron"; }
  // No recordables, as NEST (its GetDefaults lists none).
  std::optional<std::vector<std::string>> recordables() const override { return std::nullopt; }
  const std::vector<Variable>& variables() const override {
    static const std::vector<Variable> vars = {{"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  bool takes_events() const override { return true; }
  bool precise_spike_times() const override { return precise; }
  // Spikes at receptor_type 1 are not repeated (NEST: connections that only drive plasticity).
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 2;
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) throw IllegalConnectionError(std::string(name()) + " takes spikes only, no currents");
    if (receptor > 1) throw bad_value("receptor_type", receptor, "0 or 1 for " + std::string(name()));
    return receptor;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[0][i] > 0)) throw bad_value("tau_minus", g.vars[0][i], "> 0");
  }
  void calibrate(NeuronGroup& g, double) const override { g.counters.assign(g.size(), 0); }
  // Each event is one spike, whatever its weight: counted per parrot, then repeated in the
  // order of the parrots (at the end of the step, or at each spike's offset).
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    static thread_local std::vector<InputEvent> mine;
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      if constexpr (precise) {
        mine.clear();
        for (const InputEvent& e : ctx.events(lag))
          if (e.column - g.first_input < g.size()) mine.push_back(e);
        std::stable_sort(mine.begin(), mine.end(), [](const InputEvent& a, const InputEvent& b) {
          return a.column != b.column ? a.column < b.column : a.offset > b.offset;
        });
        for (const InputEvent& e : mine) ctx.spike(g, e.column - g.first_input, lag, e.offset);
      } else {
        for (const InputEvent& e : ctx.events(lag))
          if (e.column - g.first_input < g.size()) ++g.counters[e.column - g.first_input];
        for (size_t i = 0; i < g.size(); ++i)
          for (; g.counters[i] > 0; --g.counters[i]) ctx.spike(g, i, lag);
      }
      ctx.after_step(g, lag);
    }
  }
};

using ParrotNeuron = Parrot<false>;
using ParrotNeuronPs = Parrot<true>;

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(ParrotNeuron);
RANVIER_REGISTER_NEURON_MODEL(ParrotNeuronPs);

}  // namespace ranvier
