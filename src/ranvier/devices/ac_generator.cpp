// ac_generator: a sinusoidal current offset + amplitude sin(2 pi frequency t + phase) (pA,
// Hz, degrees). As in NEST, the current that acts during a step (delay aside) has the phase
// of the step's start, and the oscillation runs whether or not the device is active.
#include <cmath>

#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class AcGenerator final : public StimulatorModel {
 public:
  enum { amplitude, offset, phase, frequency };
  const char* name() const override { return "ac_generator"; }
  bool sends_current() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"amplitude", 0.0}, {"offset", 0.0}, {"phase", 0.0}, {"frequency", 0.0}};
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.current_steps(s.first, s.last, s.h);
    const double omega = 2.0 * M_PI * d.number(frequency) * 1e-3;  // per ms
    const double phi = d.number(phase) * M_PI / 180.0;
    for (int64_t k = begin; k < end; ++k) {
      // sent in step k, the current acts during step k + 1, which starts at (k + 1) h
      const double current = d.number(offset) + d.number(amplitude) * std::sin(omega * double(k + 1) * s.h + phi);
      for (size_t i = 0; i < n; ++i) s.current(c[i], k, current);
    }
  }
};

RANVIER_REGISTER_STIMULATOR(AcGenerator);

}  // namespace
}  // namespace ranvier
