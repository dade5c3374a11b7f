// ppd_sup_generator: to each target the pooled train of n_proc independent Poisson processes
// with dead time (rate in Hz, dead_time in ms), as NEST 3.10 draws it (Deger et al. 2011):
// each component is either ready, and fires with the hazard h / (1000 / rate - dead_time) per
// step, or refractory for dead_time / h steps after its spike. A target keeps how many
// components are ready and how many fired in each of the last dead_time / h steps, starting
// near equilibrium (rate n_proc h / 1000 of them in each refractory step, the rest ready).
// frequency (Hz) and relative_amplitude modulate the hazard by 1 + a sin(2 pi f t). The spikes
// of step k are a binomial draw from the stream of (generator, target) at the connection's
// index among the generator's connections to that target: the same for any threads or
// processes, each connection its own train.
#include <cmath>
#include <map>
#include <numbers>

#include "core/binomial.hpp"
#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class PpdSupGenerator final : public StimulatorModel {
 public:
  enum { rate, dead_time, n_proc, frequency, relative_amplitude };
  // The state of a connection: the refractory steps and n_proc it was made for, the multapse
  // index, the next refractory step to free, the ready components, then the refractory ones.
  enum { kBins, kProcs, kMultapse, kNext, kReady, kRefractory };
  const char* name() const override { return "ppd_sup_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"rate", 0.0, "Hz"},
            {"dead_time", 0.0, "ms"},
            {"n_proc", int64_t(1), ""},
            {"frequency", 0.0, "Hz"},
            {"relative_amplitude", 0.0, ""}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (!(d.number(dead_time) >= 0)) throw bad_value("dead_time", d.number(dead_time), ">= 0");
    if (!(1000.0 / d.number(rate) > d.number(dead_time)))
      throw bad_value("rate", d.number(rate), "such that 1000 / rate exceeds the dead_time");
    if (d.count(n_proc) < 1) throw bad_value("n_proc", double(d.count(n_proc)), ">= 1");
    const double a = d.number(relative_amplitude);
    if (!(a >= 0.0 && a <= 1.0)) throw bad_value("relative_amplitude", a, "in [0, 1]");
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 0);
    if (begin >= end || d.number(rate) <= 0) return;
    const uint64_t bins = uint64_t(d.number(dead_time) / s.h), procs = uint64_t(d.count(n_proc));
    const double hazard = 1.0 / (1000.0 / d.number(rate) - d.number(dead_time)) * s.h;
    const double omega = 2.0 * std::numbers::pi * d.number(frequency) / 1000.0, a = d.number(relative_amplitude);
    *s.poisson_draws += uint64_t(end - begin) * n;
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint64_t>& st = s.state[i];
      if (!current(st, bins, procs)) start(d, s, c, n, bins, procs);
      const Stream draws(s.seed, Purpose::stimulus, d.gid, c[i].target_gid);
      for (int64_t k = begin; k < end; ++k) {
        const double p = a > 0.0 && omega != 0.0 ? hazard * (1.0 + a * std::sin(omega * double(k) * s.h)) : hazard;
        const uint64_t fired = binomial(draws, st[kReady], p, (st[kMultapse] << 56) | (uint64_t(k) << 16));
        if (bins > 0) {
          uint64_t& freed = st[kRefractory + st[kNext]];
          st[kReady] += freed - fired;
          freed = fired;
          st[kNext] = (st[kNext] + 1) % bins;
        }
        if (fired) s.spikes(c[i], k, double(fired));
      }
    }
  }

 private:
  static bool current(const std::vector<uint64_t>& st, uint64_t bins, uint64_t procs) {
    return st.size() == kRefractory + bins && st[kBins] == bins && st[kProcs] == procs;
  }
  // Starts the state of new connections (and of all after a change of dead_time or n_proc).
  static void start(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n, uint64_t bins,
                    uint64_t procs) {
    const uint64_t each = uint64_t(d.number(rate) / 1000.0 * double(procs) * s.h);
    std::map<uint32_t, uint64_t> seen;  // connections to each target so far
    for (size_t i = 0; i < n; ++i) {
      const uint64_t multapse = seen[c[i].target_gid]++;
      std::vector<uint64_t>& st = s.state[i];
      if (current(st, bins, procs)) continue;
      st.assign(kRefractory + bins, each);
      st[kBins] = bins, st[kProcs] = procs, st[kMultapse] = multapse, st[kNext] = 0, st[kReady] = procs - each * bins;
    }
  }
};

RANVIER_REGISTER_STIMULATOR(PpdSupGenerator);

}  // namespace
}  // namespace ranvier
