#include "synapses/connection_table.hpp"

namespace ranvier {

size_t ConnectionTable::bytes() const {
  return sources_.capacity() * sizeof(uint32_t) + offsets_.capacity() * sizeof(size_t) +
         target_.capacity() * sizeof(uint32_t) + weight_.bytes() + delay_.bytes() + pre_trace_.bytes();
}

uint16_t ConnectionTable::max_delay() const {
  const std::vector<uint16_t>& d = delay_.values();
  return d.empty() ? 0 : *std::max_element(d.begin(), d.end());
}

uint16_t ConnectionTable::min_delay() const {
  const std::vector<uint16_t>& d = delay_.values();
  return d.empty() ? 0 : *std::min_element(d.begin(), d.end());
}

void ConnectionTable::finalize() {
  const size_t n_new = staging_.size();
  if (n_new == 0) return;
  const size_t n_old = size(), total = n_old + n_new;
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t src : sources_) lo = std::min(lo, src), hi = std::max(hi, src);
  for (size_t k = 0; k < n_new; ++k) lo = std::min(lo, staging_[k].source), hi = std::max(hi, staging_[k].source);

  const bool plastic = kind_ == SynapseKind::stdp_pl_hom;
  std::vector<uint32_t> target(total);
  std::vector<double> weight(total);
  std::vector<uint16_t> delay(total);
  std::vector<PreTrace> pre(plastic ? total : 0);
  // Source index of every old connection, for reading per-source columns.
  std::vector<uint32_t> old_run(n_old);
  for (size_t i = 0; i < sources_.size(); ++i)
    std::fill(old_run.begin() + long(offsets_[i]), old_run.begin() + long(offsets_[i + 1]), uint32_t(i));
  // Copies connection k (the old ones first, then the staged ones) to position `at`.
  auto place = [&](size_t at, size_t k) {
    if (k < n_old) {
      const size_t i = old_run[k];
      target[at] = target_[k], weight[at] = weight_.at(i, k), delay[at] = delay_.at(i, k);
      if (plastic) pre[at] = pre_trace_.at(i, k);
    } else {
      const StagedConnection& s = staging_[k - n_old];
      target[at] = s.target, weight[at] = s.weight, delay[at] = uint16_t(s.delay);
    }
  };
  std::vector<uint32_t> sources;
  std::vector<size_t> offsets(1, 0);
  if (size_t(hi - lo) < 4 * total + 1024) {
    // Dense sources: a stable counting sort, releasing staged chunks as they are consumed
    // so the peak stays near one copy of the connections.
    std::vector<size_t> next(size_t(hi - lo) + 2, 0);
    for (size_t i = 0; i < sources_.size(); ++i) next[sources_[i] - lo + 1] += offsets_[i + 1] - offsets_[i];
    for (size_t k = 0; k < n_new; ++k) ++next[staging_[k].source - lo + 1];
    for (size_t i = 1; i < next.size(); ++i) next[i] += next[i - 1];
    for (size_t i = 0; i + 1 < next.size(); ++i)
      if (next[i + 1] > next[i]) sources.push_back(lo + uint32_t(i)), offsets.push_back(next[i + 1]);
    for (size_t i = 0; i < sources_.size(); ++i)
      for (size_t k = offsets_[i]; k < offsets_[i + 1]; ++k) place(next[sources_[i] - lo]++, k);
    for (size_t c = 0; c < staging_.chunk_count(); ++c) {
      const size_t end = std::min(n_new, (c + 1) * ConnectionStaging::chunk_size);
      for (size_t k = c * ConnectionStaging::chunk_size; k < end; ++k) place(next[staging_[k].source - lo]++, n_old + k);
      staging_.release_chunk(c);
    }
  } else {
    // Sparse sources (a few connections each from a huge gid range, as on one rank of
    // many): sort (source, creation index) keys, so memory follows the connections.
    std::vector<uint64_t> keys;
    keys.reserve(total);
    for (size_t i = 0; i < sources_.size(); ++i)
      for (size_t k = offsets_[i]; k < offsets_[i + 1]; ++k) keys.push_back((uint64_t(sources_[i]) << 32) | k);
    for (size_t k = 0; k < n_new; ++k) keys.push_back((uint64_t(staging_[k].source) << 32) | (n_old + k));
    std::sort(keys.begin(), keys.end());
    for (size_t at = 0; at < total; ++at) {
      const uint32_t src = uint32_t(keys[at] >> 32);
      if (sources.empty() || sources.back() != src) {
        if (!sources.empty()) offsets.push_back(at);
        sources.push_back(src);
      }
      place(at, keys[at] & 0xffffffffu);
    }
    offsets.push_back(total);
  }
  staging_.clear();

  sources_ = std::move(sources);
  offsets_ = std::move(offsets);
  target_ = std::move(target);
  if (plastic)
    weight_.assign_per_connection(std::move(weight));
  else
    weight_.assign(std::move(weight), offsets_);
  delay_.assign(std::move(delay), offsets_);
  pre_trace_.assign(std::move(pre), offsets_);
}

}  // namespace ranvier
