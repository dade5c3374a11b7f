// stdp_nn_symm_synapse, stdp_nn_pre_centered_synapse and stdp_nn_restr_synapse: STDP after
// Guetig et al. (2003) (synapses/models/guetig.hpp) with the nearest-neighbour spike pairings
// of Morrison et al. (2008), as NEST 3.10 has them. At a pre spike, the post spikes since the
// last pre spike (seen through the delay) facilitate, and the nearest earlier post spike
// depresses (its trace exp(-dt / tau_minus), not a sum over spikes):
// - symmetric: every such post spike facilitates with exp(-dt / tau_plus) from the last pre
//   spike (the nearest one; a pre spike "at 0" before the first, as NEST's);
// - presynaptic-centred: only the first, with the pre trace K+ (which then drops to 0);
// - restricted: only the first, and depression only where there was one.
// Every parameter is per connection.
#include <cmath>

#include "kernel/synapse_event.hpp"
#include "synapses/models/guetig.hpp"

namespace ranvier {
namespace {

enum class Pairing { symmetric, pre_centered, restricted };

// The record: the six Guetig parameters, K+ (presynaptic-centred only), the last pre spike.
template <Pairing pairing>
struct Slots {
  static constexpr bool k_plus_kept = pairing == Pairing::pre_centered;
  static constexpr size_t k_plus = 6, last_spike = k_plus_kept ? 7 : 6;
};

template <bool Record, Pairing pairing>
void deliver(const SynapseEvent& e) {
  using S = Slots<pairing>;
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = e.table.records().stride();
  SpikeArchives& post = e.ts.archives;
  const auto decay = [&](int64_t steps, const double* r) { return std::exp(-double(steps) * e.resolution / r[0]); };
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const uint32_t j = target[k];
      double* r = record + k * rs;
      const Guetig rule = guetig_of(r);
      const int64_t d = delay[k * ds], last = int64_t(r[S::last_spike]);
      const double kp = S::k_plus_kept ? r[S::k_plus] : 1.0;
      double w = weight[k];
      bool paired = false;  // a post spike lies in the window
      post.visit_window(j, last - d, e.stamp - d, [&](int64_t t_post, uint32_t offset) {
        const double k = kp * decay(t_post + d - last, r) * (offset ? std::exp(post.early_ms(offset) / r[0]) : 1.0);
        if (pairing == Pairing::symmetric || !paired) w = rule.facilitate(w, k);
        paired = true;
      });
      if (S::k_plus_kept && paired) r[S::k_plus] = 0.0;
      if (pairing != Pairing::restricted || paired) w = rule.depress(w, post.nearest_k_minus_at(j, e.stamp - d));
      weight[k] = w;
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, uint32_t(d)), j, w, e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, j, w);
      if (rs == 0) continue;  // a shared record moves on once, below
      if constexpr (S::k_plus_kept) r[S::k_plus] = r[S::k_plus] * decay(e.stamp - last, r) + 1.0;
      r[S::last_spike] = double(e.stamp);
    }
  });
  if (rs == 0) record[S::last_spike] = double(e.stamp);
}

void check(double w, const SynapseModel&, const double* r) { check_sign(w, r[5]); }

// The model of a pairing: stdp_synapse's parameters (Kplus where the pre trace is kept). K+
// drops to 0 where a post spike pairs with it: it depends on the target, so no run shares a
// presynaptic-centred record.
template <Pairing pairing>
SynapseBase model() {
  std::vector<SynapseParameter> p = {
      {"weight", 1.0, weight_unit}, {"delay", 1.0, "ms"},        {"tau_plus", 20.0, "ms", false, is_positive, "> 0"},
      {"lambda", 0.01, ""},         {"alpha", 1.0, ""},          {"mu_plus", 1.0, ""},
      {"mu_minus", 1.0, ""},        {"Wmax", 100.0, weight_unit}};
  if (Slots<pairing>::k_plus_kept) p.push_back({"Kplus", 0.0, "", false, is_non_negative, ">= 0"});
  return {.parameters = p,
          .deliver = {deliver<false, pairing>, deliver<true, pairing>},
          .plastic = true,
          .own_records = Slots<pairing>::k_plus_kept,
          .state = {0.0},
          .post_trace_tau = "tau_minus",
          .check_weight = check};
}

const SynapseBase symmetric = model<Pairing::symmetric>(), pre_centered = model<Pairing::pre_centered>(),
                  restricted = model<Pairing::restricted>();
[[maybe_unused]] const bool registered = register_synapse("stdp_nn_symm_synapse", &symmetric) &&
                                         register_synapse("stdp_nn_pre_centered_synapse", &pre_centered) &&
                                         register_synapse("stdp_nn_restr_synapse", &restricted);

}  // namespace
}  // namespace ranvier
