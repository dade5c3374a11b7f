// sinusoidal_gamma_generator: an inhomogeneous gamma process of shape `order` whose rate is
// rate + amplitude sin(2 pi frequency t + phase) (Hz, Hz, Hz, degrees), as NEST 3.10 draws it
// (Barbieri et al. 2001): in each step a train spikes with the hazard
// h order r(t) Lambda^(order-1) e^-Lambda / Gamma(order, Lambda), r taken at the step's end and
// Lambda = order times the rate's integral since the train's last spike (or since it started),
// in closed form. A change of parameters between runs keeps the integral so far, as NEST does.
// individual_spike_trains (a model default, as in NEST): each connection its own train, from the
// stream of (generator, target) at its index among the generator's connections to that target;
// otherwise one train for all, from the generator's stream. Either way the same for any number
// of threads or processes. Its spikes are stamped in (start + h, stop + h] (NEST 3.10, run).
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numbers>

#include "core/errors.hpp"
#include "core/gamma_hazard.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

// Rate and amplitude in 1/ms, angular frequency in 1/ms and phase in radians, as the train's
// integral uses them.
struct Sine {
  double rate, amplitude, omega, phi, order;
  bool operator==(const Sine&) const = default;
  double at(double t) const { return rate + amplitude * std::sin(omega * t + phi); }
  // Lambda over (t_a, t_b]: order times the rate's integral
  double integral(double t_a, double t_b) const {
    if (t_a == t_b) return 0.0;
    double lambda = order * rate * (t_b - t_a);
    if (std::abs(amplitude) > 0 && std::abs(omega) > 0)
      lambda += -order * amplitude / omega * (std::cos(omega * t_b + phi) - std::cos(omega * t_a + phi));
    return lambda;
  }
};

class SinusoidalGammaGenerator final : public StimulatorModel {
 public:
  enum { rate, amplitude, frequency, phase, order, individual_spike_trains };
  // A connection's state, doubles by their bits: the multapse index, the time (ms) the train's
  // integral starts, the integral up to then, and the Sine it was taken with.
  enum { kMultapse, kStart, kLambda, kSine, kWords = kSine + 5 };
  const char* name() const override { return "sinusoidal_gamma_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"rate", 0.0, "Hz"},   {"amplitude", 0.0, "Hz"}, {"frequency", 0.0, "Hz"},
            {"phase", 0.0, "deg"}, {"order", 1.0, ""},       {"individual_spike_trains", true, "", true}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (!(d.number(order) >= 1.0)) throw bad_value("order", d.number(order), ">= 1 (the gamma order)");
    if (!(d.number(amplitude) >= 0.0 && d.number(amplitude) <= d.number(rate)))
      throw bad_value("amplitude", d.number(amplitude),
                      "within [0, rate] (rate = " + std::to_string(d.number(rate)) + ")");
  }
  const char* recordable() const override { return "rate"; }
  // NEST records the rate (Hz) at every step's end, active or not.
  double recorded_value(const Device& d, int64_t k, double h, uint32_t, const std::vector<uint32_t>&) const override {
    return 1e3 * sine(d).at(double(k + 1) * h);
  }

  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const Sine now = sine(d);
    const bool individual = d.flag(individual_spike_trains);
    start_trains(s, c, n, now, double(s.first) * s.h);
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 0);  // measured against NEST
    *s.poisson_draws += uint64_t(std::max<int64_t>(0, end - begin)) * (individual ? n : 1);
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint64_t>& st = s.state[i];
      const Stream draws(s.seed, Purpose::stimulus, d.gid, individual ? c[i].target_gid : 0);  // gid 0 is no target's
      const uint64_t multapse = individual ? st[kMultapse] : 0;
      double t0 = real(st[kStart]), lambda0 = real(st[kLambda]);
      for (int64_t k = begin; k < end; ++k) {
        const double t = double(k + 1) * s.h, r = now.at(t);
        if (!(r > 0)) continue;
        const double lambda = lambda0 + now.integral(t0, t);
        const double hazard = s.h * now.order * r * gamma_hazard(now.order, lambda);
        if (draws.uniform((multapse << 48) | uint64_t(k)) < hazard) {
          s.spikes(c[i], k, 1.0);
          t0 = t, lambda0 = 0.0;
        }
      }
      st[kStart] = bits(t0), st[kLambda] = bits(lambda0);
    }
  }

 private:
  static double real(uint64_t b) { return std::bit_cast<double>(b); }
  static uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }
  static Sine sine(const Device& d) {
    return {d.number(rate) * 1e-3, d.number(amplitude) * 1e-3, 2.0 * std::numbers::pi * d.number(frequency) * 1e-3,
            d.number(phase) * std::numbers::pi / 180.0, d.number(order)};
  }
  // New connections start their trains at time t (ms); a train whose Sine changed keeps its
  // integral up to t, taken with the Sine it had.
  static void start_trains(const Stimulus& s, const StimulusConnection* c, size_t n, const Sine& now, double t) {
    // the multapse indices, counted only where a slice meets new connections
    const bool fresh = std::any_of(s.state, s.state + n, [](const auto& st) { return st.size() != kWords; });
    std::map<uint32_t, uint64_t> seen;  // connections to each target so far
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint64_t>& st = s.state[i];
      const uint64_t multapse = fresh ? seen[c[i].target_gid]++ : 0;
      if (st.size() != kWords) {
        st.assign(kWords, 0);
        st[kMultapse] = multapse, st[kStart] = bits(t), st[kLambda] = bits(0.0);
      } else {
        const Sine before{real(st[kSine]), real(st[kSine + 1]), real(st[kSine + 2]), real(st[kSine + 3]),
                          real(st[kSine + 4])};
        if (before == now) continue;
        st[kLambda] = bits(real(st[kLambda]) + before.integral(real(st[kStart]), t));
        st[kStart] = bits(t);
      }
      const double values[] = {now.rate, now.amplitude, now.omega, now.phi, now.order};
      for (int k = 0; k < 5; ++k) st[kSine + k] = bits(values[k]);
    }
  }
};

RANVIER_REGISTER_STIMULATOR(SinusoidalGammaGenerator);

}  // namespace
}  // namespace ranvier
