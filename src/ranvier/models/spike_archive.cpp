#include "models/spike_archive.hpp"

#include <cmath>

namespace ranvier {

void SpikeArchives::resize(size_t n, double keep_ms) {
  trace_.resize(n);
  history_.resize(n);
  n_incoming_.assign(n, 0);
  keep_ms_ = keep_ms;
}

void SpikeArchives::record(size_t lid, double t_ms) {
  Trace& tr = trace_[lid];
  if (n_incoming_[lid] > 0 && tr.last_spike_ms > -INFINITY) {
    std::deque<Entry>& h = history_[lid];
    h.push_back({tr.last_spike_ms, tr.k_minus, tr.last_reads});
    tr.previous_spike_ms = tr.last_spike_ms;
    // An entry read by every plastic synapse is only needed for K- lookups, which reach at
    // most keep_ms back, so it may go once its successor is older than that.
    while (h.size() > 1 && h.front().reads >= n_incoming_[lid] && t_ms - h[1].t_ms > keep_ms_ + eps_ms) h.pop_front();
  }
  tr.k_minus = tr.k_minus * std::exp((tr.last_spike_ms - t_ms) / tr.tau_minus) + 1.0;  // exp(-inf) = 0
  tr.last_spike_ms = t_ms;
  tr.last_reads = 0;
}

double SpikeArchives::k_minus_at(size_t lid, double t_ms) const {
  const Trace& tr = trace_[lid];
  if (tr.last_spike_ms == -INFINITY) return 0.0;
  if (t_ms - tr.last_spike_ms > eps_ms) return tr.k_minus * std::exp((tr.last_spike_ms - t_ms) / tr.tau_minus);
  // the newest history entry earlier than t (binary search: histories hold seconds of spikes)
  const std::deque<Entry>& h = history_[lid];
  const auto after = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return t_ms - e.t_ms > eps_ms; });
  if (after == h.begin()) return 0.0;
  const Entry& last = *(after - 1);
  return last.k_minus * std::exp((last.t_ms - t_ms) / tr.tau_minus);
}

}  // namespace ranvier
