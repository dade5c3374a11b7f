// noise_generator: a piecewise constant Gaussian current, mean + N sqrt(std^2 + std_mod^2
// sin(2 pi frequency t + phase)) (pA, Hz, degrees), drawn anew every dt (ms) from the first
// step in which the device sends. Each target gets its own noise (NEST's per-target
// amplitudes): draw j of a target comes from the stream keyed by (generator, target), so it
// is the same for any number of threads or processes.
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

struct NoiseGrid final : PreparedStimulus {
  int64_t first = 0;  // the first step in which the device sends: the noise changes there
  int64_t every = 1;  // and every this many steps after
};

class NoiseGenerator final : public StimulatorModel {
 public:
  enum { mean, std_, dt, std_mod, frequency, phase };
  const char* name() const override { return "noise_generator"; }
  bool sends_current() const override { return true; }
  std::vector<DeviceParameter> parameters(double h) const override {
    return {{"mean", 0.0, "pA"},    {"std", 0.0, "pA"},       {"dt", 10 * h, "ms"},
            {"std_mod", 0.0, "pA"}, {"frequency", 0.0, "Hz"}, {"phase", 0.0, "deg"}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double h) const override {
    if (d.number(std_) < 0) throw bad_value("std", d.number(std_), ">= 0");
    if (d.number(std_mod) < 0) throw bad_value("std_mod", d.number(std_mod), ">= 0");
    if (d.number(std_mod) > d.number(std_))
      throw bad_value("std_mod", d.number(std_mod), "<= std (" + std::to_string(d.number(std_)) + ")");
    const double steps = std::rint(d.number(dt) / h);
    if (steps < 1 || std::abs(steps * h - d.number(dt)) > 1e-9 * std::max(1.0, d.number(dt)))
      throw bad_value("dt", d.number(dt), "a positive multiple of the resolution " + std::to_string(h) + " ms");
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, int64_t, uint32_t) const override {
    auto grid = std::make_shared<NoiseGrid>();
    grid->every = int64_t(std::llround(d.number(dt) / h));
    // the first step k >= 0 whose current acts after the start: (k + 2) h > origin + start
    grid->first = std::max<int64_t>(0, int64_t(std::floor((d.origin + d.start) / h + 1e-9)) - 1);
    return grid;
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.current_steps(s.first, s.last, s.h);
    if (begin >= end) return;
    const NoiseGrid& grid = d.prepared_as<NoiseGrid>();
    for (size_t i = 0; i < n; ++i) {
      const Stream noise(s.seed, Purpose::stimulus, d.gid, c[i].target_gid);
      int64_t draw = -1;
      double current = 0.0;
      for (int64_t k = begin; k < end; ++k) {
        const int64_t j = (k - grid.first) / grid.every;
        if (j != draw) current = drawn(d, grid, j, s.h, noise), draw = j;
        s.current(c[i], k, current);
      }
    }
  }
  const char* recordable() const override { return "I"; }
  double recorded_value(const Device& d, int64_t k, double h, uint32_t seed,
                        const std::vector<uint32_t>& targets) const override {
    const auto [begin, end] = d.current_steps(k, k + 1, h);
    if (begin == end || targets.empty()) return 0.0;
    const NoiseGrid& grid = d.prepared_as<NoiseGrid>();
    double sum = 0.0;
    for (uint32_t target : targets)
      sum += drawn(d, grid, (k - grid.first) / grid.every, h, Stream(seed, Purpose::stimulus, d.gid, target));
    return sum / double(targets.size());
  }

 private:
  // Draw j of one target's stream: as NEST, with the modulation of the step in which the noise changes.
  double drawn(const Device& d, const NoiseGrid& grid, int64_t j, double h, const Stream& noise) const {
    const double omega = 2.0 * M_PI * d.number(frequency) * 1e-3, phi = d.number(phase) * M_PI / 180.0;
    const double var = d.number(std_) * d.number(std_), var_mod = d.number(std_mod) * d.number(std_mod);
    const double changed = double(grid.first + j * grid.every + 1) * h;
    return d.number(mean) + std::sqrt(var + var_mod * std::sin(omega * changed + phi)) * noise.normal(uint64_t(j));
  }
};

RANVIER_REGISTER_STIMULATOR(NoiseGenerator);

}  // namespace
}  // namespace ranvier
