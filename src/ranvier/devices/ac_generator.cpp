// ac_generator: a sinusoidal current offset + amplitude sin(2 pi frequency t + phase) (pA,
// Hz, degrees). As in NEST, the current that acts during a step (delay aside) has the phase
// of the step's start, and the oscillation runs whether or not the device is active.
#include <cmath>

#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class AcGenerator final : public CurrentGenerator {
 public:
  enum { amplitude, offset, phase, frequency };
  const char* name() const override { return "ac_generator"; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"amplitude", 0.0, "pA"}, {"offset", 0.0, "pA"}, {"phase", 0.0, "deg"}, {"frequency", 0.0, "Hz"}};
  }
  double current_in(const Device& d, int64_t k, double h) const override {
    const double omega = 2.0 * M_PI * d.number(frequency) * 1e-3;  // per ms
    const double phi = d.number(phase) * M_PI / 180.0;
    // sent in step k, the current acts during step k + 1, which starts at (k + 1) h
    return d.number(offset) + d.number(amplitude) * std::sin(omega * double(k + 1) * h + phi);
  }
};

RANVIER_REGISTER_STIMULATOR(AcGenerator);

}  // namespace
}  // namespace ranvier
