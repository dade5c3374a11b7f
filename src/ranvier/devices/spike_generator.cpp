// spike_generator: spikes at given times (ms, on the grid), each of the connection's weight
// or of its own entry in spike_weights.
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

struct SpikeSteps final : PreparedStimulus {
  std::vector<int64_t> stamps;  // ascending: a spike at the end of step stamp - 1
};

class SpikeGenerator final : public StimulatorModel {
 public:
  enum { spike_times, spike_weights };
  const char* name() const override { return "spike_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"spike_times", std::vector<double>{}, "ms"}, {"spike_weights", std::vector<double>{}, weight_unit}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double h) const override {
    const std::vector<double>& times = d.list(spike_times);
    const std::vector<double>& weights = d.list(spike_weights);
    for (double w : weights)
      if (std::isnan(w)) throw bad_value("spike_weights", listed(weights), "free of NaN");
    for (size_t i = 0; i < times.size(); ++i) {
      const double t = times[i];
      if (std::isnan(t)) throw bad_value("spike_times", listed(times), "free of NaN");
      const double steps = std::rint(t / h);
      if (std::abs(steps * h - t) > 1e-9 * std::max(1.0, std::abs(t)))
        throw bad_value("spike_times", listed(times), "on the grid of resolution " + std::to_string(h) + " ms");
      if (steps < 1 || (i > 0 && t < times[i - 1]))
        throw bad_value("spike_times", listed(times), "> 0 and ascending");
    }
    if (!weights.empty() && weights.size() != times.size())
      throw bad_value("spike_weights", listed(weights),
                      "empty or one weight per spike time (" + std::to_string(times.size()) + ")");
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, uint32_t) const override {
    auto out = std::make_shared<SpikeSteps>();
    for (double t : d.list(spike_times)) out->stamps.push_back(int64_t(std::llround(t / h)));
    return out;
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const std::vector<int64_t>& stamps = d.prepared_as<SpikeSteps>().stamps;
    const std::vector<double>& weights = d.list(spike_weights);
    const auto from = std::upper_bound(stamps.begin(), stamps.end(), s.first);
    for (size_t i = 0; i < n; ++i) {
      for (auto it = from; it != stamps.end() && *it <= s.last; ++it) {
        if (!d.active_at(*it, s.h)) continue;
        const double w = weights.empty() ? c[i].weight : weights[size_t(it - stamps.begin())];
        s.input->add_weight(*it - 1 + c[i].delay, c[i].target, s.counts_spikes[c[i].target] ? 1.0 : w);
      }
    }
  }
};

RANVIER_REGISTER_STIMULATOR(SpikeGenerator);

}  // namespace
}  // namespace ranvier
