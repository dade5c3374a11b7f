#include "models/spike_archive.hpp"

#include <algorithm>
#include <cmath>

namespace ranvier {

void SpikeArchives::resize(size_t n, int64_t keep_steps, double h) {
  if (h != h_) decay_.clear();  // every neuron's tau_minus is set again after a resize
  recent_.resize(n);
  history_.resize(n);
  if (!triplet_.empty()) triplet_.resize(n);
  for (Triplet& t : triplet_) t.decay = nullptr;  // set again with tau_minus, as decay_ may be new
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
  if (triplet_.empty()) triplet_.resize(recent_.size());
  triplet_[column].decay = &decay_.try_emplace(tau, tau, h_).first->second;
}

void SpikeArchives::record_triplet(size_t column, int64_t stamp, uint32_t offset) {
  Triplet& t = triplet_[column];
  double value = 1.0;
  if (!t.entries.empty()) {
    const TripletEntry& last = t.entries.back();
    const DecayTable& decay = *t.decay;
    const double apart =
        offset || last.offset
            ? std::exp(-(double(stamp - last.stamp) * h_ - early_ms(offset) + early_ms(last.offset)) / decay.tau())
            : decay(stamp - last.stamp);
    value = last.after * apart + 1.0;
  }
  t.entries.push_back({stamp, offset, value});
  // as the archive: spikes older than its oldest kept one are read by no synapse again
  const int64_t oldest = history_[column].empty() ? recent_[column].entries[0].stamp : history_[column].front().stamp;
  const auto from =
      std::find_if(t.entries.begin(), t.entries.end() - 1, [&](const auto& e) { return e.stamp >= oldest; });
  t.entries.erase(t.entries.begin(), from);
}

const SpikeArchives::TripletEntry* SpikeArchives::triplet_at(size_t column, int64_t stamp) const {
  if (triplet_.empty()) return nullptr;
  const std::vector<TripletEntry>& kept_here = triplet_[column].entries;
  const auto it = std::lower_bound(kept_here.begin(), kept_here.end(), stamp,
                                   [](const TripletEntry& e, int64_t s) { return e.stamp < s; });
  return it != kept_here.end() && it->stamp == stamp ? &*it : nullptr;
}

double SpikeArchives::triplet_before(size_t column, int64_t stamp) const {
  const TripletEntry* e = triplet_at(column, stamp);
  return e ? e->after - 1.0 : 0.0;
}

std::vector<double> SpikeArchives::triplet_entries(size_t column) const {
  std::vector<double> out;
  for (const Entry& e : entries(column)) {
    const TripletEntry* t = triplet_at(column, e.stamp);
    out.push_back(t ? t->after : NAN);
  }
  return out;
}

void SpikeArchives::restore_triplet(size_t column, const std::vector<Entry>& entries,
                                    const std::vector<double>& values) {
  if (triplet_.empty()) triplet_.resize(recent_.size());
  std::vector<TripletEntry>& kept_here = triplet_[column].entries;
  kept_here.clear();
  for (size_t k = 0; k < entries.size(); ++k)
    if (!std::isnan(values[k])) kept_here.push_back({entries[k].stamp, entries[k].offset, values[k]});
}

void SpikeArchives::record(size_t column, int64_t stamp, double offset_ms) {
  const uint32_t offset =
      offset_ms > 0.0 ? uint32_t(std::min<int64_t>(std::llround(offset_ms / unit_ms_), offset_units)) : 0;
  Recent& r = recent_[column];
  const Entry oldest = r.entries[0];
  if (n_incoming_[column] > 0 && oldest.stamp != never) {
    std::deque<Entry>& h = history_[column];
    h.push_back(oldest);
    r.older = oldest.stamp;
    // An entry read by every plastic synapse is only needed for K- lookups, which reach at
    // most keep_steps back, so it may go once its successor is older than that.
    while (h.size() > 1 && h.front().reads >= n_incoming_[column] && stamp - h[1].stamp > keep_steps_) h.pop_front();
  }
  const Entry last = r.last();
  std::copy(r.entries + 1, r.entries + kept, r.entries);
  // the spike's step of K-, at its end: a precise spike's 1 has decayed over its offset
  const double step = offset ? std::exp(-early_ms(offset) / r.decay->tau()) : 1.0;
  r.entries[kept - 1] = {stamp, last.stamp == never ? step : last.k_minus * (*r.decay)(stamp - last.stamp) + step, 0,
                         offset};
  if (!triplet_.empty() && triplet_[column].decay) record_triplet(column, stamp, offset);
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
