// Delivery: the spikes of the last cycle into the ring buffers of their targets, through the
// source-sorted connection tables.
#include <algorithm>

#include "kernel/kernel.hpp"

namespace ranvier {

namespace {

// static_synapse: the weight into the target's input row at the arrival step.
void deliver_static(ConnectionTable& table, size_t source_index, SourceRange r, size_t emitted, RingBuffers& input,
                    const uint8_t* counts, bool long_range) {
  const uint32_t* target = table.targets() + r.begin;
  const double* weight = table.weights().run(source_index, r.begin);
  const uint16_t* delay = table.delays().run(source_index, r.begin);
  const size_t ws = table.weights().stride(), ds = table.delays().stride(), n = r.end - r.begin;
  if (ws == 0 && ds == 0 && !counts) {  // one weight and delay for the whole run: a plain scatter
    const double w = *weight;
    double* row = input.row_for(input.slot_after(emitted, *delay), w, long_range);
    for (size_t k = 0; k < n; ++k) row[target[k]] += w;
    return;
  }
  for (size_t k = 0; k < n; ++k) {
    const double w = counts && counts[target[k]] ? 1.0 : weight[k * ws];
    input.add_at_slot(input.slot_after(emitted, delay[k * ds]), target[k], w, long_range);
  }
}

// stdp_pl_synapse_hom: facilitation by the post spikes since the last pre spike, depression
// by the post trace at this pre spike, both seen through the delay; then the pre trace K+.
// Times are steps; `plus` is exp(-steps h / tau_plus).
void deliver_plastic(ConnectionTable& table, size_t source_index, SourceRange r, int64_t t_spike, size_t emitted,
                     const StdpPlParameters& stdp, const DecayTable& plus, ThreadState& ts, const uint8_t* counts,
                     bool long_range) {
  const uint32_t* target = table.targets() + r.begin;
  double* weight = table.weights().run(source_index, r.begin);
  const uint16_t* delay = table.delays().run(source_index, r.begin);
  PreTrace* pre = table.pre_traces().run(source_index, r.begin);
  const size_t ds = table.delays().stride(), ps = table.pre_traces().stride();
  const size_t n = r.end - r.begin;
  SpikeArchives& post = ts.archives;
  constexpr size_t ahead = 8;
  for (size_t k = 0; k < std::min(ahead, n); ++k) post.prefetch(target[k]);
  for (size_t k = 0; k < n; ++k) {
    if (k + ahead < n) post.prefetch(target[k + ahead]);
    const uint32_t j = target[k];
    const int64_t d = delay[k * ds], last = pre[k * ps].last_spike;
    const double kp = pre[k * ps].k_plus;
    double w = weight[k];
    if (post.spiked_after(j, last - d))
      post.visit_window(j, last - d, t_spike - d,
                        [&](int64_t t_post) { w = stdp.facilitate(w, kp * plus(t_post + d - last)); });
    w = stdp.depress(w, post.k_minus_at(j, t_spike - d));
    weight[k] = w;
    // stdp weights stay >= 0: the excitatory row, whose address does not wait for w (a store
    // whose address waited for the weight's arithmetic would hold back the next loads)
    ts.input.row_for(ts.input.slot_after(emitted, uint32_t(d)), 1.0, long_range)[j] += counts && counts[j] ? 1.0 : w;
  }
  for (size_t k = 0; k < (ps == 0 ? 1 : n); ++k) {
    PreTrace& p = pre[k * ps];
    p.k_plus = p.k_plus * plus(t_spike - p.last_spike) + 1.0;
    p.last_spike = t_spike;
  }
}

}  // namespace

void Kernel::deliver(ThreadState& ts, std::vector<ConnectionTable>& tables, const Spike* begin, const Spike* end,
                     bool long_range) {
  const uint8_t* counts = ts.has_parrots ? ts.counts_spikes.data() : nullptr;
  for (size_t syn = 0; syn < tables.size(); ++syn) {
    ConnectionTable& table = tables[syn];
    if (table.size() == 0) continue;
    const bool plastic = table.plastic();
    size_t hint = 0;
    for (const Spike* s = begin; s != end; ++s) {
      hint = table.seek(s->gid, hint);
      if (hint == table.sources().size()) break;
      if (table.sources()[hint] != s->gid) continue;
      const size_t emitted = ts.input.slot(s->stamp - 1);  // arrival slot = emitted + delay
      const SourceRange r = table.range_at(hint);
      (plastic ? ts.plastic_events : ts.static_events) += r.end - r.begin;
      if (plastic)
        deliver_plastic(table, hint, r, s->stamp, emitted, synapse_models_[syn].stdp, plus_decay_[syn], ts, counts,
                        long_range);
      else
        deliver_static(table, hint, r, emitted, ts.input, counts, long_range);
    }
  }
}

// Long-range spikes of the last D cycles, cycle by cycle in emission order, so each target
// sees them in the order a conventional run delivers them.
void Kernel::deliver_lumped(ThreadState& ts) {
  const Spike* begin = long_buffer_.data();
  const Spike* end = begin + long_buffer_.size();
  while (begin != end) {
    const int64_t cycle = (begin->stamp - 1) / min_delay_;
    const Spike* stop = begin;
    while (stop != end && (stop->stamp - 1) / min_delay_ == cycle) ++stop;
    deliver(ts, ts.long_tables, begin, stop, true);
    begin = stop;
  }
}

}  // namespace ranvier
