// spike_train_injector: a neuron that emits given spike trains (NEST 3.10), so its spikes
// travel like any neuron's (every synapse model, across ranks). spike_times (ms, relative to
// origin, non-descending) are put on the grid when set: a time within half a tic (0.5 us by default) of a
// step is that step, any other is an error unless allow_offgrid_times, which moves it to the
// end of its step; with shift_now_spikes a time at the current step moves one step on. A spike
// at step s is emitted if origin + start < s <= origin + stop, spike_multiplicities[k] times
// (once each where it is empty); spikes whose step has passed are not emitted. It has no
// input ports, so connections to it are refused, as in NEST. precise_times (off-grid spikes) is not offered:
// Ranvier's spikes lie on the grid.
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/grid_times.hpp"
#include "core/tics.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var { origin, start, stop, precise_times, allow_offgrid_times, shift_now_spikes };
enum List { spike_times, spike_multiplicities };

int64_t steps_of(double ms, double h) { return std::llround(ms / h); }

class SpikeTrainInjector final : public NeuronModel {
 public:
  const char* name() const override { return "spike_train_injector"; }
  // No recordables, as NEST (its GetDefaults lists none).
  std::optional<std::vector<std::string>> recordables() const override { return std::nullopt; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"origin", 0.0, "ms"},
                                               {"start", 0.0, "ms"},
                                               {"stop", never_ms, "ms"},
                                               {"precise_times", 0.0, "", true},
                                               {"allow_offgrid_times", 0.0, "", true},
                                               {"shift_now_spikes", 0.0, "", true}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"spike_times", {}, "ms"}, {"spike_multiplicities", {}, ""}};
    return lists;
  }
  void on_set(NeuronGroup& g, size_t i, const SetContext& c) const override {
    for (const Var v : {origin, start, stop}) {
      double& ms = g.vars[v][i];
      if (ms >= never_ms) ms = never_ms;  // as NEST takes infinity
      if (std::isfinite(ms) && ms < never_ms && std::abs(steps_of(ms, c.h) * c.h - ms) > 0.5 / double(c.tics_per_ms))
        throw bad_value(variables()[v].name, ms, "a multiple of the resolution " + std::to_string(c.h) + " ms");
    }
    std::vector<double>& times = g.lists[spike_times][i];
    for (const Var flag : {allow_offgrid_times, shift_now_spikes})
      if (c.sets(variables()[flag].name) && !c.sets("spike_times") && !times.empty())
        throw bad_value(variables()[flag].name, bool(g.vars[flag][i]),
                        "set together with spike_times or while there are none");
    if (c.sets("spike_times")) on_grid(g, i, times, c);
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (g.vars[precise_times][i] != 0.0)
      throw bad_value("precise_times", "True", "False: Ranvier's spikes lie on the grid");
    if (!(g.vars[stop][i] >= g.vars[start][i])) throw bad_value("stop", g.vars[stop][i], ">= start");
    const std::vector<double>& times = g.lists[spike_times][i];
    const std::vector<double>& counts = g.lists[spike_multiplicities][i];
    if (!counts.empty() && counts.size() != times.size())
      throw bad_value("spike_multiplicities", listed(counts),
                      "empty or one per spike time (" + std::to_string(times.size()) + ")");
    for (double m : counts)
      if (!(m >= 0 && m == std::floor(m)))
        throw bad_value("spike_multiplicities", listed(counts), "whole numbers >= 0");
  }
  // No input ports: a connection into the injector is refused, as in NEST.
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 0;
  }
  void calibrate(NeuronGroup&, double) const override {}
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    // Spikes at steps s in (first, last] are emitted in step s - 1 (their spike time is s h).
    const int64_t first = ctx.origin + ctx.from, last = ctx.origin + ctx.to;
    for (size_t i = 0; i < g.size(); ++i) {
      const std::vector<double>& times = g.lists[spike_times][i];
      if (times.empty()) continue;
      const std::vector<double>& counts = g.lists[spike_multiplicities][i];
      const int64_t o = steps_of(g.vars[origin][i], ctx.h);
      const int64_t t_min = o + steps_of(g.vars[start][i], ctx.h);
      const double stop_ms = g.vars[origin][i] + g.vars[stop][i];
      const int64_t t_max = stop_ms < never_ms ? steps_of(stop_ms, ctx.h) : INT64_MAX;
      auto k =
          std::partition_point(times.begin(), times.end(), [&](double t) { return o + steps_of(t, ctx.h) <= first; });
      for (; k != times.end(); ++k) {
        const int64_t s = o + steps_of(*k, ctx.h);
        if (s > last) break;
        if (s <= t_min || s > t_max) continue;
        const long n = counts.empty() ? 1 : std::lround(counts[size_t(k - times.begin())]);
        for (long m = 0; m < n; ++m) ctx.spike(g, i, int(s - ctx.origin - 1));
      }
    }
    for (int lag = ctx.from; lag < ctx.to; ++lag) ctx.after_step(g, lag);
  }

 private:
  // Puts neuron i's new spike times on the grid, checking them as NEST does.
  void on_grid(NeuronGroup& g, size_t i, std::vector<double>& times, const SetContext& c) const {
    const SpikeTimeRules rules{g.vars[allow_offgrid_times][i] != 0.0, g.vars[shift_now_spikes][i] != 0.0,
                               c.now - steps_of(g.vars[origin][i], c.h)};
    settle_spike_times(times, c.h, c.tics_per_ms, rules);
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(SpikeTrainInjector);

}  // namespace ranvier
