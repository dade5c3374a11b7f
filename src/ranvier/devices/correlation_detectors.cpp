// NEST's correlation_detector, correlomatrix_detector and correlospinmatrix_detector: recorders
// of the spikes of their sources, each connection's receptor_type (the source's channel) and
// weight with every spike; python/ranvier/correlation_detectors.py turns them into NEST's
// histograms. delta_tau (a multiple of the resolution, odd for correlomatrix; 5 steps by
// default, 1 for correlospinmatrix) is the width of a bin, tau_max (a multiple of delta_tau, 10
// bins by default) the largest lag; spikes count from Tstart to Tstop.
#include <cmath>

#include "core/grid_times.hpp"
#include "devices/recorder_model.hpp"

namespace ranvier {
namespace {

enum class Kind { pair, matrix, spin };  // of two channels; of N_channels; of binary neurons' states

template <Kind kind>
class CorrelationDetector final : public RecorderModel {
  static constexpr bool matrix = kind != Kind::pair;

 public:
  const char* name() const override {
    return kind == Kind::pair     ? "correlation_detector"
           : kind == Kind::matrix ? "correlomatrix_detector"
                                  : "correlospinmatrix_detector";
  }
  Records records() const override { return Records::spikes; }
  std::vector<DeviceParameter> parameters(double h) const override {
    const double delta_tau = (kind == Kind::spin ? 1 : 5) * h;
    std::vector<DeviceParameter> p = {{"delta_tau", delta_tau, "ms"},
                                      {"tau_max", 10 * delta_tau, "ms"},
                                      {"Tstart", 0.0, "ms"},
                                      {"Tstop", never_ms, "ms"}};
    if (matrix) p.push_back({"N_channels", int64_t(1), ""});
    return p;
  }
  std::vector<std::string> columns() const override { return {"receptors", "weights"}; }
  void check(const Device& d, double h) const override {
    const double delta_tau = std::get<double>(value_of(d, "delta_tau"));
    const double tau_max = std::get<double>(value_of(d, "tau_max"));
    if (!(delta_tau > 0) || !whole_multiple(delta_tau, h))
      throw bad_value("delta_tau", delta_tau, "a positive multiple of the resolution (" + std::to_string(h) + " ms)");
    if (!(tau_max >= 0) || !whole_multiple(tau_max, delta_tau))
      throw bad_value("tau_max", tau_max, "a multiple of delta_tau (" + std::to_string(delta_tau) + " ms)");
    if (kind == Kind::matrix &&
        std::llround(delta_tau / h) % 2 != 1)  // NEST's: its bins are centred on lags of whole steps
      throw bad_value("delta_tau", delta_tau, "an odd multiple of the resolution (" + std::to_string(h) + " ms)");
    if (matrix && std::get<int64_t>(value_of(d, "N_channels")) < 1)
      throw bad_value("N_channels", std::get<int64_t>(value_of(d, "N_channels")), ">= 1");
  }
  void configure(Device& d, double) const override { d.record_from = columns(); }
  void record_spike(const Device&, RecordedEvents& events, const RecordedSpike& spike) const override {
    events.senders.push_back(spike.sender);
    events.stamps.push_back(spike.stamp);
    events.values.insert(events.values.end(), {double(spike.port), spike.weight});
  }
  // NEST's channels: 0 and 1, or 0 .. N_channels - 1
  void check_port(const Device& d, uint32_t port) const override {
    const int64_t channels = matrix ? std::get<int64_t>(value_of(d, "N_channels")) : 2;
    if (int64_t(port) >= channels)
      throw bad_value(
          "receptor_type", port,
          "below " + std::to_string(channels) + " (the channels of " + name() + " " + std::to_string(d.gid) + ")");
  }
};

using CorrelationPairDetector = CorrelationDetector<Kind::pair>;
using CorrelomatrixDetector = CorrelationDetector<Kind::matrix>;
using CorrelospinmatrixDetector = CorrelationDetector<Kind::spin>;
RANVIER_REGISTER_RECORDER(CorrelationPairDetector);
RANVIER_REGISTER_RECORDER(CorrelomatrixDetector);
RANVIER_REGISTER_RECORDER(CorrelospinmatrixDetector);

}  // namespace
}  // namespace ranvier
