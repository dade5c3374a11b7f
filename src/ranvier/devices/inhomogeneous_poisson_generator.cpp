// inhomogeneous_poisson_generator: Poisson spikes of a piecewise constant rate,
// rate_values[i] (Hz) from rate_times[i] (ms) on, 0 before the first (see
// piecewise_constant.hpp). Each target its own train, keyed by (generator, target): the
// same for any number of threads or processes.
#include "devices/piecewise_constant.hpp"

namespace ranvier {
namespace {

class InhomogeneousPoissonGenerator final : public StimulatorModel {
 public:
  enum { rate_times, rate_values, allow_offgrid_times };
  static constexpr PiecewiseParameters piecewise{
      rate_times,
      rate_values,
      allow_offgrid_times,
      "rate_times",
      "rate_values",
      {"Rate times and values must be reset together.", "Rate times and values have to be the same size.",
       "Rate times must be strictly increasing.", "Time points must lie strictly in the future.",
       "Option can only be set together with rate times or if no rate times have been set."},
      true};
  const char* name() const override { return "inhomogeneous_poisson_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"rate_times", std::vector<double>{}, "ms"},
            {"rate_values", std::vector<double>{}, "Hz"},
            {"allow_offgrid_times", false, ""}};
  }
  void settle(Device& d, const std::vector<size_t>& changed, double h, int64_t tics_per_ms,
              int64_t now) const override {
    piecewise.settle(d, changed, h, tics_per_ms, now);
  }
  void validate(const Device& d, const std::vector<size_t>& changed, double h) const override {
    piecewise.validate(d, changed, h);  // as NEST, a rate <= 0 gives no spikes
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, int64_t, uint32_t) const override {
    return piecewise.prepare(d, h);
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 0);
    if (begin >= end) return;
    const PiecewiseConstant& rate = d.prepared_as<PiecewiseConstant>();
    *s.poisson_draws += uint64_t(end - begin) * n;
    size_t next = rate.first(begin);
    double hz = rate.at(begin + 1, next);
    PoissonCounts counts(hz * s.h * 1e-3);  // rebuilt where the rate changes
    for (int64_t k = begin; k < end; ++k) {
      // the spikes of step k are stamped k + 1: the rate in force then
      if (const double now = rate.at(k + 1, next); now != hz) hz = now, counts = PoissonCounts(hz * s.h * 1e-3);
      if (hz <= 0) continue;
      for (size_t i = 0; i < n; ++i)
        if (const uint32_t spikes = counts(Stream(s.seed, Purpose::stimulus, d.gid, c[i].target_gid), uint64_t(k)))
          s.spikes(c[i], k, spikes);
    }
  }
};

RANVIER_REGISTER_STIMULATOR(InhomogeneousPoissonGenerator);

}  // namespace
}  // namespace ranvier
