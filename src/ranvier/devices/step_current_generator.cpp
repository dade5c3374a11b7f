// step_current_generator: a piecewise constant current, amplitude_values[i] (pA) from
// amplitude_times[i] (ms) on, 0 before the first (see piecewise_constant.hpp).
#include "devices/piecewise_constant.hpp"

namespace ranvier {
namespace {

class StepCurrentGenerator final : public CurrentGenerator {
 public:
  enum { amplitude_times, amplitude_values, allow_offgrid_times };
  static constexpr PiecewiseParameters piecewise{
      amplitude_times,
      amplitude_values,
      allow_offgrid_times,
      "amplitude_times",
      "amplitude_values",
      {"Amplitude times and values must be reset together.", "Amplitude times and values have to be the same size.",
       "amplitude times must be at strictly increasing time steps.",
       "Amplitude can only be changed at strictly positive times (t > 0).",
       "allow_offgrid_times can only be changed before amplitude_times have been set, or together with "
       "amplitude_times and amplitude_values."}};
  const char* name() const override { return "step_current_generator"; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"amplitude_times", std::vector<double>{}, "ms"},
            {"amplitude_values", std::vector<double>{}, "pA"},
            {"allow_offgrid_times", false, ""}};
  }
  void settle(Device& d, const std::vector<size_t>& changed, double h, int64_t tics_per_ms,
              int64_t now) const override {
    piecewise.settle(d, changed, h, tics_per_ms, now);
  }
  void validate(const Device& d, const std::vector<size_t>& changed, double h) const override {
    piecewise.validate(d, changed, h);
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, int64_t, uint32_t) const override {
    return piecewise.prepare(d, h);
  }
  double current_in(const Device& d, int64_t k, double) const override {
    const PiecewiseConstant& amplitude = d.prepared_as<PiecewiseConstant>();
    size_t next = amplitude.first(k + 1);
    return amplitude.at(k + 1, next);  // acts during step k + 1: its value then
  }
};

RANVIER_REGISTER_STIMULATOR(StepCurrentGenerator);

}  // namespace
}  // namespace ranvier
