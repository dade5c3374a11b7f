// quantal_stp_synapse: stochastic release at n sites (Fuhrmann et al. 2002; Loebel et al.
// 2009), as NEST 3.10 delivers a spike: after the first spike, u relaxes towards U with
// tau_fac and steps by U (1 - u), and each depleted site recovers with probability
// 1 - exp(-dt / tau_rec); then each of the a available sites releases with probability u, and
// the spike arrives with n_release times the weight (not at all if none released). Every
// connection draws for itself: trial j of a spike comes from the stream of (source, target)
// of its synapse model at (spike step, index among the pair's multapses, j), the same for any
// number of threads and processes.
#include "core/rng.hpp"
#include "kernel/synapse_event.hpp"
#include "synapses/multapse_index.hpp"

namespace ranvier {
namespace {

// Record slots: the per-connection parameters after weight and delay, then the last spike
// (ms; -1 before the first).
enum Slot { kU, kUse, kTauRec, kTauFac, kN, kAvailable, kLastSpike };

// Up to 4096 blocks of four trials per spike: n and a are at most 8192 (NEST sets no bound).
constexpr double max_sites = 8192;
bool is_site_count(double v) { return v >= 0 && v <= max_sites && v == std::floor(v); }

// The Bernoulli trials of one spike of one connection, in the order NEST draws them.
class Trials {
 public:
  Trials(const Stream& s, uint64_t base) : s_(s), base_(base) {}
  bool next(double p) {
    if ((j_ & 3) == 0) block_ = s_.block(base_ | (j_ >> 2));
    return double(block_.w[j_++ & 3]) * 0x1.0p-32 < p;
  }

 private:
  Stream s_;
  uint64_t base_, j_ = 0;
  Block block_{};
};

// Advances record r to a spike at t_spike (ms) and returns the number of sites released.
double release(double* r, double t_spike, Trials& trials) {
  if (r[kLastSpike] >= 0.0) {
    const double dt = t_spike - r[kLastSpike];
    const double u_decay = r[kTauFac] < 1e-10 ? 0.0 : std::exp(-dt / r[kTauFac]);
    const double recover = -std::expm1(-dt / r[kTauRec]);
    r[kUse] = r[kU] + r[kUse] * (1.0 - r[kU]) * u_decay;
    for (double depleted = r[kN] - r[kAvailable]; depleted > 0; --depleted) r[kAvailable] += trials.next(recover);
  }
  double released = 0;
  for (double site = r[kAvailable]; site > 0; --site) released += trials.next(r[kUse]);
  r[kAvailable] -= released;
  r[kLastSpike] = t_spike;
  return released;
}

template <bool Record>
void deliver(const SynapseEvent& e) {
  thread_local MultapseIndex multapse;
  ConnectionTable& table = e.table;
  const uint32_t* target = e.targets();
  const double* weight = e.weights();
  double* record = e.records();
  const size_t ws = table.weights().stride(), rs = table.records().stride();
  const size_t n = e.size();
  const double t_spike = e.t_spike();
  const Purpose purpose = Purpose(uint32_t(Purpose::synapse_release) | (e.model.streams << 8));  // per model
  multapse.start(e.ts.n_inputs());
  table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < n; ++k) {
      const uint32_t j = target[k];
      // 36 bits of step, 16 of multapse, 12 of trial block
      const uint64_t base = (uint64_t(e.stamp) << 28) | (uint64_t(multapse.next(j) & 0xffff) << 12);
      Trials trials(Stream(e.seed, purpose, e.source, e.ts.input_gid[j]), base);
      const double released = release(record + k * rs, t_spike, trials);
      if (released == 0) continue;
      const double w = released * weight[k * ws];
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, delay[k * ds]), j, w, e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, j, w);
    }
  });
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"U", 0.5, "", false, is_probability, "in [0, 1]"},
                                       {"u", 0.5, "", false, is_probability, "in [0, 1]"},
                                       {"tau_rec", 800.0, "ms", false, is_positive, "> 0"},
                                       {"tau_fac", 0.0, "ms", false, is_non_negative, ">= 0"},
                                       {"n", 1.0, "", false, is_site_count, "a whole number in [0, 8192]"},
                                       {"a", 1.0, "", false, is_site_count, "a whole number in [0, 8192]"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .own_records = true,
                        .state = {-1.0}};
[[maybe_unused]] const bool registered = register_synapse("quantal_stp_synapse", &model);

}  // namespace
}  // namespace ranvier
