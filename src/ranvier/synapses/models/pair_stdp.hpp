// Pair-based STDP as NEST's stdp synapses deliver a spike: the weight is first facilitated
// for each post spike since the last pre spike, by K+ decayed to that post spike, then
// depressed by the post trace K- at this pre spike, both seen through the (dendritic) delay;
// then the pre trace K+ decays to this spike and steps by 1. A Rule supplies the two weight
// updates, the decay of K+ over a number of steps (and its tau_plus, for a precise post spike
// that lies before its step's end), the record slots of K+ and of the last pre spike (a step;
// 0 before the first, as in NEST) and the input row (+1 or -1) its weights use.
#pragma once
#include <algorithm>
#include <cmath>

#include "kernel/synapse_event.hpp"

namespace ranvier {

template <bool Record, class Rule>
void deliver_pair_stdp(const SynapseEvent& e, const Rule& rule) {
  ConnectionTable& table = e.table;
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = table.records().stride();
  const size_t n = e.size();
  const int64_t t_spike = e.stamp;
  SpikeArchives& post = e.ts.archives;
  RingBuffers& input = e.ts.input;
  constexpr size_t ahead = 8;
  for (size_t k = 0; k < std::min(ahead, n); ++k) post.prefetch(target[k]);
  table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    // Where the run shares its delay and record (so its sign) and no input is queued or taken
    // as events, every weight goes to one row, found once.
    double* row = n > 0 && ds == 0 && rs == 0 && !input.takes_events() && !input.queued()
                      ? input.row_for(input.slot_after(e.emitted, uint32_t(*delay)), rule.sign(record), e.long_range)
                      : nullptr;
    for (size_t k = 0; k < n; ++k) {
      if (k + ahead < n) post.prefetch(target[k + ahead]);
      const uint32_t j = target[k];
      const double* r = record + k * rs;
      const int64_t d = delay[k * ds], last = int64_t(r[Rule::last_spike]);
      const double kp = r[Rule::k_plus];
      double w = weight[k];
      if (post.spiked_after(j, last - d))
        post.visit_window(j, last - d, t_spike - d, [&](int64_t t_post, uint32_t offset) {
          const double k = kp * rule.decay(t_post + d - last, r);
          w = rule.facilitate(w, offset ? k * std::exp(post.early_ms(offset) / rule.tau_plus(r)) : k, r);
        });
      w = rule.depress(w, post.k_minus_at(j, t_spike - d), r);
      weight[k] = w;
      // the row of the weights' sign, whose address does not wait for w (a store whose address
      // waited for the weight's arithmetic would hold back the next loads)
      if (row)
        row[j] += w;
      else
        input.add_signed(input.slot_after(e.emitted, uint32_t(d)), j, rule.sign(r), w, e.long_range, e.offset,
                         e.source);
      if constexpr (Record) e.record(k, j, w);
    }
  });
  for (size_t k = 0; k < (rs == 0 ? 1 : n); ++k) {
    double* r = record + k * rs;
    r[Rule::k_plus] = r[Rule::k_plus] * rule.decay(t_spike - int64_t(r[Rule::last_spike]), r) + 1.0;
    r[Rule::last_spike] = double(t_spike);
  }
}

}  // namespace ranvier
