// spike_generator: spikes at given times (ms), each of the connection's weight or of its own
// entry in spike_weights. Times are on the grid (as NEST's Time takes them: within half a tic
// of a step, and then kept as that step's time), or off it with NEST's precise_times: a spike
// then leaves at the end of the step holding its time, with its offset before that end, which
// cells that take events (cable cells, NEST's precise models) act on; point neurons see it on
// the grid, as in NEST. With allow_offgrid_times a time off the grid moves to the end of its
// step, with shift_now_spikes a time at the current step one step on. spike_multiplicities
// sends each spike as that many.
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/grid_times.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

struct SpikeSteps final : PreparedStimulus {
  std::vector<int64_t> stamps;  // ascending: a spike at the end of step stamp - 1
  std::vector<double> offsets;  // ms before that end (precise_times), else empty
};

class SpikeGenerator final : public StimulatorModel {
 public:
  enum { spike_times, spike_weights, precise_times, allow_offgrid_times, spike_multiplicities, shift_now_spikes };
  const char* name() const override { return "spike_generator"; }
  bool emits_spikes() const override { return true; }
  bool precise_spike_times() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"spike_times", std::vector<double>{}, "ms"},
            {"spike_weights", std::vector<double>{}, weight_unit},
            {"precise_times", false, ""},
            {"allow_offgrid_times", false, ""},
            {"spike_multiplicities", std::vector<double>{}, ""},
            {"shift_now_spikes", false, ""}};
  }
  // NEST's spike times when set (core/grid_times.hpp); precise ones stay as given (measured).
  void settle(Device& d, const std::vector<size_t>& changed, double h, int64_t tics_per_ms,
              int64_t now) const override {
    if (d.flag(precise_times) || std::find(changed.begin(), changed.end(), size_t(spike_times)) == changed.end())
      return;
    const SpikeTimeRules rules{d.flag(allow_offgrid_times), d.flag(shift_now_spikes), now - std::llround(d.origin / h)};
    settle_spike_times(std::get<std::vector<double>>(d.values[spike_times]), h, tics_per_ms, rules);
  }
  void validate(const Device& d, const std::vector<size_t>&, double h) const override {
    const std::vector<double>& times = d.list(spike_times);
    const std::vector<double>& weights = d.list(spike_weights);
    for (double w : weights)
      if (std::isnan(w)) throw bad_value("spike_weights", listed(weights), "free of NaN");
    if (d.flag(precise_times) && (d.flag(allow_offgrid_times) || d.flag(shift_now_spikes)))
      throw bad_value("precise_times", "True",
                      "False where allow_offgrid_times or shift_now_spikes is True (NEST: Option precise_times "
                      "cannot be set to true when either allow_offgrid_times or shift_now_spikes is set to true.)");
    const std::vector<double>& counts = d.list(spike_multiplicities);
    for (double m : counts)
      if (!(m >= 0 && m == std::floor(m)))
        throw bad_value("spike_multiplicities", listed(counts), "whole numbers >= 0");
    if (!counts.empty() && counts.size() != times.size())
      throw bad_value("spike_multiplicities", listed(counts),
                      "empty or one count per spike time (" + std::to_string(times.size()) + ")");
    for (size_t i = 0; i < times.size(); ++i) {
      const double t = times[i];
      if (std::isnan(t)) throw bad_value("spike_times", listed(times), "free of NaN");
      if (!d.flag(precise_times) && !d.flag(allow_offgrid_times) &&
          std::abs(std::rint(t / h) * h - t) > 1e-9 * std::max(1.0, std::abs(t)))
        throw bad_value(
            "spike_times", listed(times),
            "on the grid of resolution " + std::to_string(h) + " ms (or precise_times, or allow_offgrid_times)");
      if (stamp_of(t, h) < 1 || (i > 0 && t < times[i - 1]))
        throw bad_value("spike_times", listed(times), "> 0 and ascending");
    }
    if (!weights.empty() && weights.size() != times.size())
      throw bad_value("spike_weights", listed(weights),
                      "empty or one weight per spike time (" + std::to_string(times.size()) + ")");
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, int64_t tics_per_ms,
                                                  uint32_t) const override {
    auto out = std::make_shared<SpikeSteps>();
    for (double t : d.list(spike_times)) {
      out->stamps.push_back(stamp_of(t, h));
      // the step's end as NEST's Time gives it (whole tics): 17.9 ms less 17.9 ms is exactly 0
      const double end = ms_of_tics(out->stamps.back() * tics_per_step(h, tics_per_ms), tics_per_ms);
      if (d.flag(precise_times)) out->offsets.push_back(std::max(0.0, end - t));
    }
    return out;
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const SpikeSteps& prepared = d.prepared_as<SpikeSteps>();
    const std::vector<int64_t>& stamps = prepared.stamps;
    const std::vector<double>& weights = d.list(spike_weights);
    const std::vector<double>& counts = d.list(spike_multiplicities);
    const auto from = std::upper_bound(stamps.begin(), stamps.end(), s.first);
    for (size_t i = 0; i < n; ++i) {
      for (auto it = from; it != stamps.end() && *it <= s.last; ++it) {
        if (!d.active_at(*it, s.h)) continue;
        const size_t k = size_t(it - stamps.begin());
        const double w = weights.empty() ? c[i].weight : weights[k];
        const double offset = prepared.offsets.empty() ? 0.0 : prepared.offsets[k];
        s.spikes_at(c[i], *it, counts.empty() ? 1.0 : counts[k], w, offset);
      }
    }
  }

 private:
  // The step at whose end a spike at t leaves: t itself on the grid, else the next grid point
  // (a time within 1e-9 of a step of it counts as on it).
  static int64_t stamp_of(double t, double h) {
    const double steps = t / h;
    return std::abs(steps - std::rint(steps)) <= 1e-9 * std::max(1.0, std::abs(steps)) ? int64_t(std::llround(steps))
                                                                                       : int64_t(std::ceil(steps));
  }
};

RANVIER_REGISTER_STIMULATOR(SpikeGenerator);

}  // namespace
}  // namespace ranvier
