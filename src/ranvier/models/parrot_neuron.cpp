// Repeats every spike it receives at receptor_type 0 in the step it arrives (NEST's
// parrot_neuron), or at its precise time, earliest first (NEST's parrot_neuron_ps). The first
// sends flush events to e-prop synapses, as NEST's does (models/flush_clock.hpp).
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "models/flush_clock.hpp"

namespace ranvier {
namespace {

constexpr size_t flush_interval = 2;  // the variable, parrot_neuron's only

struct Flushes final : CellState {
  FlushClock clock;
  explicit Flushes(size_t n) : clock(n) {}
  bool save(size_t i, std::vector<double>& out) const override {
    out.push_back(double(clock.last_event[i]));
    return true;
  }
  void load(size_t i, const double* begin, const double*) override { clock.last_event[i] = int64_t(*begin); }
};

template <bool precise>
class Parrot final : public NeuronModel {
 public:
  const char* name() const override { return precise ? "parrot_neuron_ps" : "parrot_neuron"; }
  // No recordables, as NEST (its GetDefaults lists none).
  std::optional<std::vector<std::string>> recordables() const override { return std::nullopt; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = {{"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
      if (!precise) v.push_back({"flush_event_send_interval", INFINITY, "ms"});
      return v;
    }();
    return vars;
  }
  bool takes_events() const override { return true; }
  bool precise_spike_times() const override { return precise; }
  // Spikes at receptor_type 1 are not repeated (NEST: connections that only drive plasticity).
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 2;
    if (!precise) g.state = std::make_unique<Flushes>(g.size());
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) throw IllegalConnectionError(std::string(name()) + " takes spikes only, no currents");
    if (receptor > 1) throw bad_value("receptor_type", receptor, "0 or 1 for " + std::string(name()));
    return receptor;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[0][i] > 0)) throw bad_value("tau_minus", g.vars[0][i], "> 0");
    if (!precise && !(g.vars[flush_interval][i] > 0))
      throw bad_value("flush_event_send_interval", g.vars[flush_interval][i], "> 0");
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
        FlushClock& flushes = static_cast<Flushes&>(*g.state).clock;
        for (size_t i = 0; i < g.size(); ++i) {
          flushes.step(g, i, ctx, lag, g.counters[i] > 0, g.vars[flush_interval][i]);
          for (; g.counters[i] > 0; --g.counters[i]) ctx.spike(g, i, lag);
        }
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
