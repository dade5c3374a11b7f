// poisson_generator_ps: to each target its own Poisson train of rate `rate` (Hz) at precise
// times, with an absolute dead time after each spike (NEST's poisson_generator_ps): intervals
// are dead_time plus an exponential of mean 1000 / rate - dead_time ms. A train starts at the
// beginning of the device's activity (its first spike there: within the dead time with the
// probability that a stationary train is dead at a random time, as NEST draws it) and keeps
// its next spike, as a step and an offset before the step's end, across slices. Each
// connection's draws come from the stream of (generator, target) at its index among the
// generator's connections to that target: the same for any threads or processes.
#include <bit>
#include <cmath>
#include <map>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class PoissonGeneratorPs final : public StimulatorModel {
 public:
  enum { rate, dead_time };
  const char* name() const override { return "poisson_generator_ps"; }
  bool emits_spikes() const override { return true; }
  bool precise_spike_times() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"rate", 0.0, "Hz"}, {"dead_time", 0.0, "ms"}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (!(d.number(rate) >= 0)) throw bad_value("rate", d.number(rate), ">= 0");
    if (!(d.number(dead_time) >= 0)) throw bad_value("dead_time", d.number(dead_time), ">= 0");
    if (d.number(rate) > 0 && !(1000.0 / d.number(rate) > d.number(dead_time)))
      throw bad_value("dead_time", d.number(dead_time), "below the mean interval 1000 / rate");
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const double r = d.number(rate), dead = d.number(dead_time);
    if (r <= 0) return;
    // Active in (t_min, t_max] (steps): the slice within the device's window.
    const int64_t opens = std::llround((d.origin + d.start) / s.h);
    const double closes = (d.origin + d.stop) / s.h;
    const int64_t t_min = std::max(s.first, opens), t_max = closes < double(s.last) ? std::llround(closes) : s.last;
    if (t_min >= t_max) return;
    const double mean = 1000.0 / r - dead;
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint64_t>& st = s.state[i];  // multapse, draws made, next stamp, its offset's bits
      if (!running(st, opens)) start(s, c, n, opens);
      const Stream draws(s.seed, Purpose::stimulus, d.gid, c[i].target_gid);
      const auto draw = [&] { return draws.uniform((st[0] << 48) | st[1]++); };
      const auto exponential = [&] { return -std::log1p(-draw()); };
      int64_t stamp = int64_t(st[2]);
      double offset = std::bit_cast<double>(st[3]);
      if (stamp == 0) {  // a new train: its first spike after t_min
        const double first = dead > 0 && draw() < dead * r / 1000.0 ? draw() * dead : mean * exponential() + dead;
        const int64_t steps = grid_steps_at_or_after(first, s.h);
        stamp = t_min + steps, offset = double(steps) * s.h - first;
      }
      for (; stamp <= t_max; *s.poisson_draws += 1) {
        s.spikes_at(c[i], stamp, 1.0, c[i].weight, offset);
        const double next = -offset + mean * exponential() + dead;  // from the end of this step
        if (next < 0) {
          offset = -next;
        } else {
          const int64_t steps = grid_steps_at_or_after(next, s.h);
          stamp += steps, offset = double(steps) * s.h - next;
        }
      }
      st[2] = uint64_t(stamp), st[3] = std::bit_cast<uint64_t>(offset);
    }
  }

 private:
  // NEST's Time::ms_stamp: the number of whole steps that reach t.
  static int64_t grid_steps_at_or_after(double t, double h) { return int64_t(std::ceil(t / h - 1e-12)); }
  // Whether a connection has a train whose next spike (stamp 0: none drawn yet) is in the window.
  static bool running(const std::vector<uint64_t>& st, int64_t opens) {
    return st.size() == 4 && (st[2] == 0 || int64_t(st[2]) >= opens);
  }
  // New trains for connections without one, or whose next spike the window left behind.
  static void start(const Stimulus& s, const StimulusConnection* c, size_t n, int64_t opens) {
    std::map<uint32_t, uint64_t> seen;  // connections to each target so far
    for (size_t i = 0; i < n; ++i) {
      const uint64_t multapse = seen[c[i].target_gid]++;
      std::vector<uint64_t>& st = s.state[i];
      if (running(st, opens)) continue;
      st = {multapse, st.size() == 4 ? st[1] : 0, 0, 0};
    }
  }
};

RANVIER_REGISTER_STIMULATOR(PoissonGeneratorPs);

}  // namespace
}  // namespace ranvier
