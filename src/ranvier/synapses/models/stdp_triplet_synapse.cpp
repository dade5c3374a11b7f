// stdp_triplet_synapse: triplet STDP after Pfister and Gerstner (2006), all-to-all, as NEST 3.10
// has it. Beside the pair traces K+ (pre, tau_plus) and K- (post, the target's tau_minus), a
// slower pre trace Kplus_triplet (tau_plus_triplet) and post trace (the target's
// tau_minus_triplet, kept beside its spike archive) scale the updates: each post spike since the
// last pre spike facilitates by K+ (Aplus + Aplus_triplet y), y the post triplet trace just before
// that spike; the pre spike depresses by K- (Aminus + Aminus_triplet x), x the pre triplet trace
// just before it. |w| stays within [0, |Wmax|] with the sign of Wmax. Every parameter is per
// connection.
#include <cmath>

#include "kernel/synapse_event.hpp"
#include "synapses/models/guetig.hpp"

namespace ranvier {
namespace {

// The record: per-connection parameters, both pre traces, then the last pre spike (a step).
enum Slot { kTauPlus, kTauPlusTriplet, kAplus, kAminus, kAplusTriplet, kAminusTriplet, kWmax, k_plus, k_triplet, last };

double facilitated(double w, double k_plus, double y, const double* r) {
  const double grown = std::abs(w) + k_plus * (r[kAplus] + r[kAplusTriplet] * y);
  return std::copysign(grown < std::abs(r[kWmax]) ? grown : r[kWmax], r[kWmax]);
}
double depressed(double w, double k_minus, double x, const double* r) {
  const double shrunk = std::abs(w) - k_minus * (r[kAminus] + r[kAminusTriplet] * x);
  return std::copysign(shrunk > 0.0 ? shrunk : 0.0, r[kWmax]);
}
double decay(int64_t steps, double h, double tau) { return std::exp(-double(steps) * h / tau); }

template <bool Record>
void deliver(const SynapseEvent& e) {
  ConnectionTable& table = e.table;
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = table.records().stride();
  const int64_t t_spike = e.stamp;
  const double h = e.resolution;
  SpikeArchives& post = e.ts.archives;
  RingBuffers& input = e.ts.input;
  table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const uint32_t j = target[k];
      const double* r = record + k * rs;
      const int64_t d = delay[k * ds], since = int64_t(r[last]);
      double w = weight[k];
      post.visit_window(j, since - d, t_spike - d, [&](int64_t t_post, uint32_t offset) {
        const double kp = r[k_plus] * decay(t_post + d - since, h, r[kTauPlus]);
        const double early = offset ? std::exp(post.early_ms(offset) / r[kTauPlus]) : 1.0;
        w = facilitated(w, kp * early, post.triplet_before(j, t_post), r);
      });
      const double x = r[k_triplet] * decay(t_spike - since, h, r[kTauPlusTriplet]);
      w = depressed(w, post.k_minus_at(j, t_spike - d), x, r);
      weight[k] = w;
      const double sign = r[kWmax] >= 0.0 ? 1.0 : -1.0;
      input.add_signed(input.slot_after(e.emitted, uint32_t(d)), j, sign, w, e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, j, w);
    }
  });
  for (size_t k = 0; k < (rs == 0 ? 1 : e.size()); ++k) {  // the traces depend on the pre spikes only
    double* r = record + k * rs;
    const int64_t since = t_spike - int64_t(r[last]);
    r[k_triplet] = r[k_triplet] * decay(since, h, r[kTauPlusTriplet]) + 1.0;
    r[k_plus] = r[k_plus] * decay(since, h, r[kTauPlus]) + 1.0;
    r[last] = double(t_spike);
  }
}

void check_weight(double w, const SynapseModel&, const double* record) { check_sign(w, record[kWmax]); }

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"tau_plus", 16.8, "ms", false, is_positive, "> 0"},
                                       {"tau_plus_triplet", 101.0, "ms", false, is_positive, "> 0"},
                                       {"Aplus", 5e-10, ""},
                                       {"Aminus", 7e-3, ""},
                                       {"Aplus_triplet", 6.2e-3, ""},
                                       {"Aminus_triplet", 2.3e-4, ""},
                                       {"Wmax", 100.0, weight_unit},
                                       {"Kplus", 0.0, "", false, is_non_negative, ">= 0"},
                                       {"Kplus_triplet", 0.0, "", false, is_non_negative, ">= 0"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .plastic = true,
                        .state = {0.0},
                        .post_trace_tau = "tau_minus",
                        .post_triplet_tau = "tau_minus_triplet",
                        .check_weight = check_weight};
[[maybe_unused]] const bool registered = register_synapse("stdp_triplet_synapse", &model);

}  // namespace
}  // namespace ranvier
