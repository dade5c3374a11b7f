// pulsepacket_generator: Gaussian pulse packets (synfire-like input): around each of
// pulse_times (ms), `activity` spikes at times drawn from a normal distribution of standard
// deviation sdev (ms). All targets receive the same train. As in NEST, a spike drawn at x
// is sent at the end of the step after the one x lies in (x on a step's end: the next
// step's end), and spikes before the simulation's start are dropped. The train is drawn
// from the stream keyed by the generator (draw i of pulse p), so it does not depend on the
// partition, and it is drawn anew from the same numbers when a parameter changes.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

struct Packets final : PreparedStimulus {
  std::vector<std::pair<int64_t, uint32_t>> stamps;  // (stamp, spikes), ascending
};

class PulsepacketGenerator final : public StimulatorModel {
 public:
  enum { pulse_times, activity, sdev };
  const char* name() const override { return "pulsepacket_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"pulse_times", std::vector<double>{}, "ms"}, {"activity", int64_t(0), ""}, {"sdev", 0.0, "ms"}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (d.count(activity) < 0) throw bad_value("activity", d.count(activity), ">= 0");
    if (d.number(sdev) < 0) throw bad_value("sdev", d.number(sdev), ">= 0");
    for (double t : d.list(pulse_times))
      if (!std::isfinite(t)) throw bad_value("pulse_times", listed(d.list(pulse_times)), "finite");
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, int64_t, uint32_t seed) const override {
    std::vector<double> pulses = d.list(pulse_times);
    std::sort(pulses.begin(), pulses.end());
    const Stream draws(seed, Purpose::stimulus, d.gid, 0);
    std::map<int64_t, uint32_t> counts;
    for (size_t p = 0; p < pulses.size(); ++p)
      for (int64_t i = 0; i < d.count(activity); ++i) {
        const double x = pulses[p] + d.number(sdev) * draws.normal((uint64_t(p) << 32) + uint64_t(i));
        if (x >= 0) ++counts[int64_t(std::ceil(x / h - 1e-9)) + 1];
      }
    auto out = std::make_shared<Packets>();
    out->stamps.assign(counts.begin(), counts.end());
    return out;
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto& stamps = d.prepared_as<Packets>().stamps;
    auto it = std::upper_bound(stamps.begin(), stamps.end(), std::make_pair(s.first, UINT32_MAX));
    for (; it != stamps.end() && it->first <= s.last; ++it) {
      if (!d.active_at(it->first, s.h)) continue;
      for (size_t i = 0; i < n; ++i) s.spikes(c[i], it->first - 1, it->second);
    }
  }
};

RANVIER_REGISTER_STIMULATOR(PulsepacketGenerator);

}  // namespace
}  // namespace ranvier
