#include "models/spike_archive.hpp"

namespace ranvier {

void SpikeArchives::resize(size_t n, int64_t keep_steps, double h) {
  if (h != h_) decay_.clear();  // every neuron's tau_minus is set again after a resize
  recent_.resize(n);
  history_.resize(n);
  n_incoming_.assign(n, 0);
  keep_steps_ = keep_steps;
  h_ = h;
}

void SpikeArchives::set_tau_minus(size_t column, double tau) {
  recent_[column].decay = &decay_.try_emplace(tau, tau, h_).first->second;
}

void SpikeArchives::record(size_t column, int64_t stamp) {
  Recent& r = recent_[column];
  if (n_incoming_[column] > 0 && r.previous.stamp != never) {
    std::deque<Entry>& h = history_[column];
    h.push_back(r.previous);
    r.older = r.previous.stamp;
    // An entry read by every plastic synapse is only needed for K- lookups, which reach at
    // most keep_steps back, so it may go once its successor is older than that.
    while (h.size() > 1 && h.front().reads >= n_incoming_[column] && stamp - h[1].stamp > keep_steps_) h.pop_front();
  }
  r.previous = r.last;
  r.last.k_minus = r.last.stamp == never ? 1.0 : r.last.k_minus * (*r.decay)(stamp - r.last.stamp) + 1.0;
  r.last.stamp = stamp;
  r.last.reads = 0;
}

// The neuron spiked at or after the step: the previous spike, else the history.
double SpikeArchives::k_minus_before_last(size_t column, int64_t step) const {
  const Recent& r = recent_[column];
  if (r.previous.stamp == never) return 0.0;
  if (step > r.previous.stamp) return r.previous.k_minus * (*r.decay)(step - r.previous.stamp);
  const std::deque<Entry>& h = history_[column];  // binary search: histories hold seconds of spikes
  const auto after = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return e.stamp < step; });
  if (after == h.begin()) return 0.0;
  const Entry& last = *(after - 1);
  return last.k_minus * (*r.decay)(step - last.stamp);
}

double SpikeArchives::nearest_k_minus_at(size_t column, int64_t step) const {
  const Recent& r = recent_[column];
  int64_t last = never;
  if (r.last.stamp < step) {
    last = r.last.stamp;
  } else if (r.previous.stamp < step) {
    last = r.previous.stamp;
  } else {
    const std::deque<Entry>& h = history_[column];
    const auto after = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return e.stamp < step; });
    if (after != h.begin()) last = (after - 1)->stamp;
  }
  return last == never ? 0.0 : (*r.decay)(step - last);
}

}  // namespace ranvier
