// NEST's step_rate_generator: a piecewise constant rate (amplitude_values from amplitude_times
// on) that it sends through rate_connection_delayed to rate neurons (kernel/coupling.hpp),
// 0 outside its active window. A node of its own, as NEST's, placed as a neuron is; it takes no
// input.
#include <algorithm>

#include "core/grid_times.hpp"
#include "models/coupled_model.hpp"

namespace ranvier {
namespace {

enum Var { rate, origin, start, stop, allow_offgrid_times };
enum List { amplitude_times, amplitude_values };

int64_t steps_of(double ms, double h) { return std::llround(ms / h); }

class StepRateGenerator final : public NeuronModel, public CoupledModel {
 public:
  const char* name() const override { return "step_rate_generator"; }
  const char* element_type() const override { return "stimulator"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"rate"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"rate", 0.0, ""},
                                               {"origin", 0.0, "ms"},
                                               {"start", 0.0, "ms"},
                                               {"stop", never_ms, "ms"},
                                               {"allow_offgrid_times", 0.0, "", true}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"amplitude_times", {}, "ms"}, {"amplitude_values", {}, ""}};
    return lists;
  }
  // Times on the grid as NEST keeps them; times and values change together.
  void on_set(NeuronGroup& g, size_t i, const SetContext& c) const override {
    for (const Var v : {origin, start, stop})
      g.vars[v][i] = grid_ms(variables()[v].name, g.vars[v][i], c.h, c.tics_per_ms);
    if (c.sets("amplitude_times") != c.sets("amplitude_values"))
      throw bad_value(c.sets("amplitude_times") ? "amplitude_times" : "amplitude_values", "alone",
                      "set together with amplitude_values and amplitude_times");
    std::vector<double>& times = g.lists[amplitude_times][i];
    if (c.sets("allow_offgrid_times") && !c.sets("amplitude_times") && !times.empty())
      throw bad_value("allow_offgrid_times", bool(g.vars[allow_offgrid_times][i]),
                      "set together with amplitude_times or while there are none");
    if (!c.sets("amplitude_times")) return;
    const std::vector<double> given = times;
    const NestTime nest_ms{tics_per_step(c.h, c.tics_per_ms), c.tics_per_ms};  // in ms as NEST shows them
    for (double& t : times)
      t = nest_ms(grid_step(t, c.h, c.tics_per_ms, g.vars[allow_offgrid_times][i] != 0.0, "amplitude_times", given));
  }
  void validate(NeuronGroup& g, size_t i) const override {
    const std::vector<double>& times = g.lists[amplitude_times][i];
    const std::vector<double>& values = g.lists[amplitude_values][i];
    if (times.size() != values.size())
      throw bad_value("amplitude_values", listed(values),
                      "one per amplitude time (" + std::to_string(times.size()) + ")");
    for (size_t k = 0; k < times.size(); ++k)
      if (!(times[k] > (k ? times[k - 1] : 0.0)))
        throw bad_value("amplitude_times", listed(times), "strictly increasing and > 0");
    if (!(g.vars[stop][i] >= g.vars[start][i])) throw bad_value("stop", g.vars[stop][i], ">= start");
  }
  // No input ports: a connection into the generator is refused, as in NEST.
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 0;
    g.state = std::make_unique<CouplingBuffers>();
  }
  void calibrate(NeuronGroup&, double) const override {}
  // From the step that ends at amplitude_times[k] on (times from 0, not from origin, as
  // NEST's), amplitude_values[k], while active: the step ending at t is active for
  // origin + start <= t < origin + stop (NEST's window for rate generators, as run). What a
  // connection of delay d carries d later is the rate of the step after (NEST's timing, as run
  // with one-step cycles; its longer cycles shift it by amounts that do not follow the delay).
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    CouplingBuffers& b = buffers(g);
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const int64_t end = ctx.origin + lag + 1;  // the step's end, in steps
      for (size_t i = 0; i < g.size(); ++i) {
        g.vars[rate][i] = rate_until(g, i, end, ctx.h);
        b.sent.at(size_t(lag), i) = rate_until(g, i, end + 1, ctx.h);
      }
      ctx.after_step(g, lag);
    }
  }

  const CoupledModel* coupled_model() const override { return this; }
  bool joins(SecondaryEvent kind) const override { return kind == SecondaryEvent::delayed_rate; }
  // Its rates depend on nothing it receives: settled at once, sent by the cycle's update.
  bool relax(NeuronGroup&, UpdateContext&, double) const override { return true; }
  double held(const NeuronGroup& g, size_t i) const override { return g.vars[rate][i]; }

 private:
  // Generator i's rate in the step that ends at step `end`.
  static double rate_until(const NeuronGroup& g, size_t i, int64_t end, double h) {
    const std::vector<double>& times = g.lists[amplitude_times][i];
    const auto due = std::partition_point(times.begin(), times.end(), [&](double t) { return steps_of(t, h) <= end; });
    const int64_t o = steps_of(g.vars[origin][i], h);
    const double stop_ms = g.vars[origin][i] + g.vars[stop][i];
    const int64_t t_max = stop_ms < never_ms ? steps_of(stop_ms, h) : INT64_MAX;
    const bool active = o + steps_of(g.vars[start][i], h) <= end && end < t_max;
    if (!active || due == times.begin()) return 0.0;
    return g.lists[amplitude_values][i][size_t(due - times.begin()) - 1];
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(StepRateGenerator);

}  // namespace ranvier
