#include "synapses/connection_table.hpp"

namespace ranvier {

size_t ConnectionTable::bytes() const {
  return sources_.capacity() * sizeof(uint32_t) + offsets_.capacity() * sizeof(size_t) +
         target_.capacity() * sizeof(uint32_t) + weight_.capacity() * sizeof(double) +
         delay_.capacity() * sizeof(uint16_t) +
         (k_plus_.capacity() + t_last_spike_.capacity()) * sizeof(double);
}

uint16_t ConnectionTable::max_delay() const {
  return delay_.empty() ? 0 : *std::max_element(delay_.begin(), delay_.end());
}

uint16_t ConnectionTable::min_delay() const {
  return delay_.empty() ? 0 : *std::min_element(delay_.begin(), delay_.end());
}

void ConnectionTable::finalize() {
  const size_t n_new = staging_.size();
  if (n_new == 0) return;
  // Counting sort by source over the span of sources present; stable, so every source
  // keeps its connections in creation order whatever the thread count.
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t s : sources_) lo = std::min(lo, s), hi = std::max(hi, s);
  for (size_t k = 0; k < n_new; ++k)
    lo = std::min(lo, staging_[k].source), hi = std::max(hi, staging_[k].source);
  std::vector<size_t> start(size_t(hi - lo) + 2, 0);
  for (size_t i = 0; i < sources_.size(); ++i)
    start[sources_[i] - lo + 1] += offsets_[i + 1] - offsets_[i];
  for (size_t k = 0; k < n_new; ++k) ++start[staging_[k].source - lo + 1];
  for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];

  const size_t total = size() + n_new;
  const bool plastic = kind_ == SynapseKind::stdp_pl_hom;
  std::vector<uint32_t> target(total);
  std::vector<double> weight(total);
  std::vector<uint16_t> delay(total);
  std::vector<double> k_plus(plastic ? total : 0), t_last(plastic ? total : 0);
  std::vector<size_t> next(start.begin(), start.end() - 1);
  auto place = [&](uint32_t source, uint32_t tgt, double w, uint16_t d, double kp, double tl) {
    const size_t at = next[source - lo]++;
    target[at] = tgt;
    weight[at] = w;
    delay[at] = d;
    if (plastic) k_plus[at] = kp, t_last[at] = tl;
  };
  for (size_t i = 0; i < sources_.size(); ++i)
    for (size_t k = offsets_[i]; k < offsets_[i + 1]; ++k)
      place(sources_[i], target_[k], weight_[k], delay_[k], plastic ? k_plus_[k] : 0.0,
            plastic ? t_last_spike_[k] : 0.0);
  for (size_t c = 0; c < staging_.chunk_count(); ++c) {
    const size_t end = std::min(n_new, (c + 1) * ConnectionStaging::chunk_size);
    for (size_t k = c * ConnectionStaging::chunk_size; k < end; ++k) {
      const StagedConnection& s = staging_[k];
      place(s.source, s.target, s.weight, uint16_t(s.delay), 0.0, 0.0);
    }
    staging_.release_chunk(c);  // keeps the peak near one copy of the connections
  }
  staging_.clear();

  sources_.clear();
  offsets_.assign(1, 0);
  for (size_t i = 0; i + 1 < start.size(); ++i)
    if (start[i + 1] > start[i]) {
      sources_.push_back(lo + uint32_t(i));
      offsets_.push_back(start[i + 1]);
    }
  sources_.shrink_to_fit();
  offsets_.shrink_to_fit();
  target_ = std::move(target);
  weight_ = std::move(weight);
  delay_ = std::move(delay);
  k_plus_ = std::move(k_plus);
  t_last_spike_ = std::move(t_last);
}

}  // namespace ranvier
