// step_current_generator: a piecewise constant current, amplitude_values[i] (pA) from
// amplitude_times[i] (ms) on, 0 before the first (see piecewise_constant.hpp).
#include "devices/piecewise_constant.hpp"

namespace ranvier {
namespace {

class StepCurrentGenerator final : public StimulatorModel {
 public:
  enum { amplitude_times, amplitude_values, allow_offgrid_times };
  static constexpr PiecewiseParameters piecewise{amplitude_times, amplitude_values, allow_offgrid_times,
                                                 "amplitude_times", "amplitude_values"};
  const char* name() const override { return "step_current_generator"; }
  bool sends_current() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"amplitude_times", std::vector<double>{}},
            {"amplitude_values", std::vector<double>{}},
            {"allow_offgrid_times", false}};
  }
  void validate(const Device& d, const std::vector<size_t>& changed, double h) const override {
    piecewise.validate(d, changed, h);
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, uint32_t) const override {
    return piecewise.prepare(d, h);
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.current_steps(s.first, s.last, s.h);
    const PiecewiseConstant& amplitude = d.prepared_as<PiecewiseConstant>();
    size_t next = amplitude.first(begin);
    for (int64_t k = begin; k < end; ++k) {
      const double current = amplitude.at(k + 1, next);  // acts during step k + 1: its value then
      for (size_t i = 0; i < n; ++i) s.current(c[i], k, current);
    }
  }
};

RANVIER_REGISTER_STIMULATOR(StepCurrentGenerator);

}  // namespace
}  // namespace ranvier
