// NEST's volume_transmitter: collects the spikes of its sources (dopaminergic neurons), each
// arriving spike counted once whatever its weight, and every deliver_interval x min_delay
// steps has the synapses that name it (stdp_dopamine_synapse) brought up to date
// (synapses/neuromodulation.hpp). It has an instance on every thread of every process, each
// receiving all its sources' spikes, so the synapses of every thread read the same list.
#include <cmath>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

class VolumeTransmitter final : public NeuronModel {
 public:
  const char* name() const override { return "volume_transmitter"; }
  const char* element_type() const override { return "other"; }
  bool replicated() const override { return true; }
  bool takes_events() const override { return true; }
  std::optional<std::vector<std::string>> recordables() const override { return std::nullopt; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"deliver_interval", 1.0, ""}};  // in units of min_delay
    return vars;
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) throw IllegalConnectionError("volume_transmitter takes spikes only, no currents");
    if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for volume_transmitter");
    return 0;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    const double interval = g.vars[0][i];
    if (!(interval >= 1.0 && interval == std::floor(interval) && interval < 1e9))
      throw bad_value("deliver_interval", interval, "a positive whole number (of min_delay)");
  }
  void calibrate(NeuronGroup& g, double) const override { g.counters.assign(g.size(), 0); }
  // As NEST: spikes arriving in a step are stamped at its end; the synapses catch up at the
  // end of each step that is a multiple of the interval.
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      for (const InputEvent& e : ctx.events(lag))
        if (e.column - g.first_input < g.size()) ++g.counters[e.column - g.first_input];
      const int64_t stamp = ctx.origin + lag + 1;
      for (size_t i = 0; i < g.size(); ++i) {
        if (g.counters[i] > 0) {
          ctx.modulator_spikes(g.gids[i]).push_back({stamp, ctx.nest_ms(stamp), double(g.counters[i])});
          g.counters[i] = 0;
        }
        if (stamp % (int64_t(g.vars[0][i]) * ctx.min_delay) == 0) ctx.neuromodulate(g.gids[i], stamp);
      }
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(VolumeTransmitter);

}  // namespace ranvier
