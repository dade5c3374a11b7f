#include "models/spike_archive.hpp"

namespace ranvier {

void SpikeArchives::resize(size_t n, double keep_ms) {
  recent_.resize(n);
  history_.resize(n);
  n_incoming_.assign(n, 0);
  keep_ms_ = keep_ms;
}

void SpikeArchives::record(size_t lid, double t_ms) {
  Recent& r = recent_[lid];
  if (n_incoming_[lid] > 0 && r.previous.t_ms > -INFINITY) {
    std::deque<Entry>& h = history_[lid];
    h.push_back(r.previous);
    r.older_ms = r.previous.t_ms;
    // An entry read by every plastic synapse is only needed for K- lookups, which reach at
    // most keep_ms back, so it may go once its successor is older than that.
    while (h.size() > 1 && h.front().reads >= n_incoming_[lid] && t_ms - h[1].t_ms > keep_ms_ + eps_ms) h.pop_front();
  }
  r.previous = r.last;
  r.last.k_minus = r.last.k_minus * std::exp((r.last.t_ms - t_ms) / r.tau_minus) + 1.0;  // exp(-inf) = 0
  r.last.t_ms = t_ms;
  r.last.reads = 0;
}

double SpikeArchives::k_minus_at(size_t lid, double t_ms) const {
  const Recent& r = recent_[lid];
  // The latest spike before t: nearly always the last one, else mostly the previous one.
  for (const Entry* e : {&r.last, &r.previous}) {
    if (e->t_ms == -INFINITY) return 0.0;
    if (t_ms - e->t_ms > eps_ms) return e->k_minus * std::exp((e->t_ms - t_ms) / r.tau_minus);
  }
  const std::deque<Entry>& h = history_[lid];  // binary search: histories hold seconds of spikes
  const auto after = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return t_ms - e.t_ms > eps_ms; });
  if (after == h.begin()) return 0.0;
  const Entry& last = *(after - 1);
  return last.k_minus * std::exp((last.t_ms - t_ms) / r.tau_minus);
}

}  // namespace ranvier
