// sinusoidal_poisson_generator: Poisson spikes of the rate max(0, rate + amplitude
// sin(2 pi frequency t + phase)) (Hz, Hz, Hz, degrees), the rate of a step taken at its end
// (as NEST's oscillator). individual_spike_trains (a model default, as in NEST): each target
// its own train, keyed by (generator, target); otherwise one train, keyed by the generator,
// for all. Either way the same for any number of threads or processes.
#include <algorithm>
#include <cmath>

#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class SinusoidalPoissonGenerator final : public StimulatorModel {
 public:
  enum { rate, amplitude, frequency, phase, individual_spike_trains };
  const char* name() const override { return "sinusoidal_poisson_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"rate", 0.0, "Hz"},
            {"amplitude", 0.0, "Hz"},
            {"frequency", 0.0, "Hz"},
            {"phase", 0.0, "deg"},
            {"individual_spike_trains", true, "", true}};
  }
  const char* recordable() const override { return "rate"; }
  // NEST records the rate in every step, active or not, as 0 where the sine takes it below 0.
  double recorded_value(const Device& d, int64_t k, double h, uint32_t, const std::vector<uint32_t>&) const override {
    return std::max(0.0, rate_in(d, k, h));
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 2);
    const bool individual = d.flag(individual_spike_trains);
    *s.poisson_draws += uint64_t(std::max<int64_t>(0, end - begin)) * (individual ? n : 1);
    const Stream shared(s.seed, Purpose::stimulus, d.gid, 0);  // gid 0 is no target's
    for (int64_t k = begin; k < end; ++k) {
      const double hz = rate_in(d, k, s.h);
      if (hz <= 0) continue;
      const PoissonCounts counts(hz * s.h * 1e-3);
      const uint32_t all = individual ? 0 : counts(shared, uint64_t(k));
      for (size_t i = 0; i < n; ++i) {
        const uint32_t spikes =
            individual ? counts(Stream(s.seed, Purpose::stimulus, d.gid, c[i].target_gid), uint64_t(k)) : all;
        if (spikes) s.spikes(c[i], k, spikes);
      }
    }
  }

 private:
  // The rate (Hz) of step k, whose spikes are stamped at its end, (k + 1) h.
  static double rate_in(const Device& d, int64_t k, double h) {
    const double omega = 2.0 * M_PI * d.number(frequency) * 1e-3, phi = d.number(phase) * M_PI / 180.0;
    return d.number(rate) + d.number(amplitude) * std::sin(omega * double(k + 1) * h + phi);
  }
};

RANVIER_REGISTER_STIMULATOR(SinusoidalPoissonGenerator);

}  // namespace
}  // namespace ranvier
