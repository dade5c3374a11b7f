#include "models/spike_archive.hpp"

#include <algorithm>
#include <cmath>

namespace ranvier {

void SpikeArchives::resize(size_t n, int64_t keep_steps, double h) {
  if (h != h_) decay_.clear();  // every neuron's tau_minus is set again after a resize
  recent_.resize(n);
  history_.resize(n);
  if (!kept_.empty()) kept_.resize(n);
  for (Kept& k : kept_) k.decay = nullptr, k.width = 0;  // set again with tau_minus, as decay_ may be new
  n_incoming_.assign(n, 0);
  keep_steps_ = keep_steps;
  h_ = h;
  unit_ms_ = h / double(offset_units);
  eps_units_ = 1e-6 / unit_ms_;
}

void SpikeArchives::set_tau_minus(size_t column, double tau) {
  recent_[column].decay = &decay_.try_emplace(tau, tau, h_).first->second;
}

void SpikeArchives::keep_triplet(size_t column, double tau) {
  Kept& k = kept_of(column);
  k.width = 1;
  k.decay = &decay_.try_emplace(tau, tau, h_).first->second;
}

void SpikeArchives::keep_values(size_t column, uint32_t width) { kept_of(column).width = width; }

SpikeArchives::Kept& SpikeArchives::kept_of(size_t column) {
  if (kept_.empty()) kept_.resize(recent_.size());
  return kept_[column];
}

void SpikeArchives::record_kept(size_t column, int64_t stamp, uint32_t offset, const double* values) {
  Kept& k = kept_[column];
  if (!k.decay && !values) return;  // a neuron that gives none (the synapses reading them refuse it as a target)
  if (k.decay) {                    // the triplet trace: the last one's decayed to this spike, plus 1
    double value = 1.0;
    if (!k.spikes.empty()) {
      const KeptSpike& last = k.spikes.back();
      const double apart =
          offset || last.offset
              ? std::exp(-(double(stamp - last.stamp) * h_ - early_ms(offset) + early_ms(last.offset)) / k.decay->tau())
              : (*k.decay)(stamp - last.stamp);
      value = k.values.back() * apart + 1.0;
    }
    k.values.push_back(value);
  } else {
    k.values.insert(k.values.end(), values, values + k.width);
  }
  k.spikes.push_back({stamp, offset});
  // as the archive: spikes older than its oldest kept one are read by no synapse again
  const int64_t oldest = history_[column].empty() ? recent_[column].entries[0].stamp : history_[column].front().stamp;
  const size_t gone =
      size_t(std::find_if(k.spikes.begin(), k.spikes.end() - 1, [&](const KeptSpike& e) { return e.stamp >= oldest; }) -
             k.spikes.begin());
  k.spikes.erase(k.spikes.begin(), k.spikes.begin() + long(gone));
  k.values.erase(k.values.begin(), k.values.begin() + long(gone * k.width));
}

const double* SpikeArchives::values_after(size_t column, int64_t stamp) const {
  if (kept_.empty()) return nullptr;
  const Kept& k = kept_[column];
  const auto it = std::lower_bound(k.spikes.begin(), k.spikes.end(), stamp,
                                   [](const KeptSpike& e, int64_t s) { return e.stamp < s; });
  return it != k.spikes.end() && it->stamp == stamp ? &k.values[size_t(it - k.spikes.begin()) * k.width] : nullptr;
}

const double* SpikeArchives::values_before(size_t column, int64_t step, int64_t& stamp) const {
  if (kept_.empty()) return nullptr;
  const Kept& k = kept_[column];
  const auto it = std::lower_bound(k.spikes.begin(), k.spikes.end(), step,
                                   [](const KeptSpike& e, int64_t s) { return e.stamp < s; });
  if (it == k.spikes.begin()) return nullptr;
  stamp = (it - 1)->stamp;
  return &k.values[size_t(it - 1 - k.spikes.begin()) * k.width];
}

double SpikeArchives::triplet_before(size_t column, int64_t stamp) const {
  const double* after = values_after(column, stamp);
  return after ? *after - 1.0 : 0.0;
}

std::vector<std::vector<double>> SpikeArchives::kept_values(size_t column) const {
  std::vector<std::vector<double>> out;
  for (const Entry& e : entries(column)) {
    const double* v = values_after(column, e.stamp);
    out.push_back(v ? std::vector<double>(v, v + kept_[column].width) : std::vector<double>{});
  }
  return out;
}

void SpikeArchives::restore_kept(size_t column, const std::vector<Entry>& entries,
                                 const std::vector<std::vector<double>>& values) {
  Kept& k = kept_of(column);
  k.spikes.clear();
  k.values.clear();
  for (size_t i = 0; i < entries.size(); ++i)
    if (!values[i].empty()) {
      k.width = uint32_t(values[i].size());
      k.spikes.push_back({entries[i].stamp, entries[i].offset});
      k.values.insert(k.values.end(), values[i].begin(), values[i].end());
    }
}

void SpikeArchives::record(size_t column, int64_t stamp, double offset_ms, const double* values) {
  const uint32_t offset =
      offset_ms > 0.0 ? uint32_t(std::min<int64_t>(std::llround(offset_ms / unit_ms_), offset_units)) : 0;
  Recent& r = recent_[column];
  const Entry oldest = r.entries[0];
  if (n_incoming_[column] > 0 && oldest.stamp != never) {
    std::deque<Entry>& h = history_[column];
    h.push_back(oldest);
    r.older = oldest.stamp;
    // An entry read by every plastic synapse is only needed for K- lookups, which reach at
    // most keep_steps back, so it may go once its successor is older than that; where the
    // neuron gives values with its spikes, once its successor is read too (a read at that
    // successor's time takes the values just after the entry: values_before).
    const uint32_t n = n_incoming_[column];
    const bool gives = !kept_.empty() && kept_[column].width && !kept_[column].decay;
    while (h.size() > 1 && h.front().reads >= n && stamp - h[1].stamp > keep_steps_ && (!gives || h[1].reads >= n))
      h.pop_front();
  }
  const Entry last = r.last();
  std::copy(r.entries + 1, r.entries + kept, r.entries);
  // the spike's step of K-, at its end: a precise spike's 1 has decayed over its offset
  const double step = offset ? std::exp(-early_ms(offset) / r.decay->tau()) : 1.0;
  r.entries[kept - 1] = {stamp, last.stamp == never ? step : last.k_minus * (*r.decay)(stamp - last.stamp) + step, 0,
                         offset};
  if (!kept_.empty() && kept_[column].width) record_kept(column, stamp, offset, values);
}

// The newest kept spike before `step`, else the history's (binary search: histories hold
// seconds of spikes); null where there is none.
const SpikeArchives::Entry* SpikeArchives::newest_before(size_t column, int64_t step) const {
  const Recent& r = recent_[column];
  for (int i = kept - 1; i >= 0; --i)
    if (before(r.entries[i], step)) return r.entries[i].stamp == never ? nullptr : &r.entries[i];
  const std::deque<Entry>& h = history_[column];
  const auto after = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return before(e, step); });
  return after == h.begin() ? nullptr : &*(after - 1);
}

// The neuron spiked at or after the step.
double SpikeArchives::k_minus_before_last(size_t column, int64_t step) const {
  const Entry* e = newest_before(column, step);
  return e ? e->k_minus * (*recent_[column].decay)(step - e->stamp) : 0.0;
}

double SpikeArchives::nearest_k_minus_at(size_t column, int64_t step) const {
  const Entry* e = newest_before(column, step);
  if (!e) return 0.0;
  const DecayTable& decay = *recent_[column].decay;
  return decay(step - e->stamp) * (e->offset ? std::exp(-early_ms(e->offset) / decay.tau()) : 1.0);
}

std::vector<SpikeArchives::Entry> SpikeArchives::entries(size_t column) const {
  std::vector<Entry> out(history_[column].begin(), history_[column].end());
  for (const Entry& e : recent_[column].entries)
    if (e.stamp != never) out.push_back(e);
  return out;
}

void SpikeArchives::restore(size_t column, const std::vector<Entry>& entries) {
  const size_t recent = std::min<size_t>(entries.size(), kept), older = entries.size() - recent;
  Recent& r = recent_[column];
  std::fill(r.entries, r.entries + kept, Entry{});
  std::copy(entries.begin() + long(older), entries.end(), r.entries + (kept - recent));
  history_[column].assign(entries.begin(), entries.begin() + long(older));
  r.older = older ? entries[older - 1].stamp : never;
}

}  // namespace ranvier
