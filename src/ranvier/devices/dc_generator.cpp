// dc_generator: a constant current `amplitude` (pA) while active.
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class DcGenerator final : public CurrentGenerator {
 public:
  enum { amplitude };
  const char* name() const override { return "dc_generator"; }
  std::vector<DeviceParameter> parameters(double) const override { return {{"amplitude", 0.0, "pA"}}; }
  double current_in(const Device& d, int64_t, double) const override { return d.number(amplitude); }
};

RANVIER_REGISTER_STIMULATOR(DcGenerator);

}  // namespace
}  // namespace ranvier
