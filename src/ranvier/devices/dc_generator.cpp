// dc_generator: a constant current `amplitude` (pA) while active.
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class DcGenerator final : public StimulatorModel {
 public:
  enum { amplitude };
  const char* name() const override { return "dc_generator"; }
  bool sends_current() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override { return {{"amplitude", 0.0}}; }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.current_steps(s.first, s.last, s.h);
    for (size_t i = 0; i < n; ++i)
      for (int64_t k = begin; k < end; ++k) s.current(c[i], k, d.number(amplitude));
  }
};

RANVIER_REGISTER_STIMULATOR(DcGenerator);

}  // namespace
}  // namespace ranvier
