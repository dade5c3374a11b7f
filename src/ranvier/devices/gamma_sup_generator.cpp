// gamma_sup_generator: to each target the pooled train of n_proc independent gamma
// processes of integer shape gamma_shape and rate `rate` (Hz), as NEST 3.10 draws it (Deger
// et al. 2011): a component process runs through gamma_shape states, leaving each with
// probability rate gamma_shape h per step, and spikes when it leaves the last one. Each target
// keeps the occupation numbers of the states, starting near their equilibrium (n_proc /
// gamma_shape in each, the remainder in the last); they advance in every step in which the
// device is active. The transitions out of state b in step k come from the stream of
// (generator, target) at the connection's index among the generator's connections to that
// target (their creation order): the same for any number of threads or processes, and each
// connection its own train, as in NEST.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

// Binomial(n, p) drawn from the blocks at index, index + 1, ... of the stream: up to 16 trials
// one by one (a 32-bit word each, four to a block), more by inversion, in chunks of at most
// `per_chunk` trials so that each chunk's mean stays small (and (1 - p)^trials far from
// underflow), one block each.
uint64_t binomial(const Stream& s, uint64_t index, uint64_t n, double p, uint64_t per_chunk) {
  if (p >= 1.0) return n;
  if (p > 0.5) return n - binomial(s, index, n, 1.0 - p, per_chunk);
  uint64_t total = 0;
  if (n <= 16) {
    const double threshold = p * 0x1.0p32;
    for (uint64_t t = 0; t < n; t += 4) {
      const Block b = s.block(index + t / 4);
      for (uint64_t k = t; k < std::min(n, t + 4); ++k) total += double(b.w[k - t]) < threshold;
    }
    return total;
  }
  for (uint64_t j = 0; n > 0; ++j) {
    const uint64_t trials = std::min(n, per_chunk);
    n -= trials;
    const double u = s.uniform(index + j), odds = p / (1.0 - p);
    double pmf = std::pow(1.0 - p, double(trials)), cdf = pmf;
    uint64_t k = 0;
    while (u >= cdf && k < trials) {
      pmf *= odds * double(trials - k) / double(k + 1);
      cdf += pmf;
      ++k;
    }
    total += k;
  }
  return total;
}

// Draw index of a connection's (step, state) pair: 8 bits of multapse (the 257th connection
// to one target repeats the first's train), 40 of step and state, 16 of block within the pair.
uint64_t index(uint64_t multapse, uint64_t step_state) { return (multapse << 56) | (step_state << 16); }

class GammaSupGenerator final : public StimulatorModel {
 public:
  enum { rate, gamma_shape, n_proc };
  const char* name() const override { return "gamma_sup_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{"rate", 0.0, "Hz"}, {"gamma_shape", int64_t(1), ""}, {"n_proc", int64_t(1), ""}};
  }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (d.count(gamma_shape) < 1) throw bad_value("gamma_shape", double(d.count(gamma_shape)), ">= 1");
    if (!(d.number(rate) >= 0)) throw bad_value("rate", d.number(rate), ">= 0");
    if (d.count(n_proc) < 1) throw bad_value("n_proc", double(d.count(n_proc)), ">= 1");
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 0);
    if (begin >= end || d.number(rate) <= 0) return;
    const uint64_t shape = uint64_t(d.count(gamma_shape)), procs = uint64_t(d.count(n_proc));
    const double p = d.number(rate) * double(shape) * s.h * 1e-3;  // a state's exit probability per step
    const double small = std::min(p, 1.0 - p);
    // at most 2^16 chunks of at least 10 / p trials each
    const uint64_t per_chunk = std::max<uint64_t>({1, small > 0 ? uint64_t(10.0 / small) : procs, (procs >> 16) + 1});
    std::vector<uint64_t> moved(shape);
    *s.poisson_draws += uint64_t(end - begin) * n * shape;
    for (size_t i = 0; i < n; ++i) {
      // the state: the shape and n_proc it was made for, the multapse index, the occupations
      std::vector<uint64_t>& st = s.state[i];
      if (!current(st, shape, procs)) start(s, c, n, shape, procs);
      const uint64_t multapse = st[2];
      uint64_t* occ = st.data() + 3;
      const Stream draws(s.seed, Purpose::stimulus, d.gid, c[i].target_gid);
      for (int64_t k = begin; k < end; ++k) {
        for (uint64_t b = 0; b < shape; ++b)
          moved[b] = occ[b] ? binomial(draws, index(multapse, uint64_t(k) * shape + b), occ[b], p, per_chunk) : 0;
        for (uint64_t b = 0; b < shape; ++b) occ[b] -= moved[b], occ[(b + 1) % shape] += moved[b];
        if (moved[shape - 1]) s.spikes(c[i], k, double(moved[shape - 1]));
      }
    }
  }

 private:
  static bool current(const std::vector<uint64_t>& st, uint64_t shape, uint64_t procs) {
    return st.size() == shape + 3 && st[0] == shape && st[1] == procs;
  }
  // Starts the state of new connections (and all after a change of shape or n_proc) near
  // equilibrium: n_proc / gamma_shape components in each state, the remainder in the last.
  static void start(const Stimulus& s, const StimulusConnection* c, size_t n, uint64_t shape, uint64_t procs) {
    std::map<uint32_t, uint64_t> seen;  // connections to each target so far
    for (size_t i = 0; i < n; ++i) {
      const uint64_t multapse = seen[c[i].target_gid]++;
      std::vector<uint64_t>& st = s.state[i];
      if (current(st, shape, procs)) continue;
      st.assign(shape + 3, procs / shape);
      st[0] = shape, st[1] = procs, st[2] = multapse;
      st.back() += procs - (procs / shape) * shape;
    }
  }
};

RANVIER_REGISTER_STIMULATOR(GammaSupGenerator);

}  // namespace
}  // namespace ranvier
