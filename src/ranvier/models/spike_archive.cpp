#include <algorithm>
#include <cmath>

#include "models/neuron_group.hpp"

namespace ranvier {

namespace {
constexpr double eps_ms = 1e-6;  // spike times are grid points; this only absorbs rounding
}

void SpikeArchive::record(double t_ms, double tau_minus) {
  k_minus = k_minus * std::exp((last_spike_ms - t_ms) / tau_minus) + 1.0;
  last_spike_ms = t_ms;
  if (n_incoming > 0) history.push_back({t_ms, k_minus, 0});
}

double SpikeArchive::k_minus_at(double t_ms, double tau_minus) const {
  if (last_spike_ms < 0.0) return 0.0;
  if (t_ms - last_spike_ms > eps_ms) return k_minus * std::exp((last_spike_ms - t_ms) / tau_minus);  // usual case
  // the last entry earlier than t (binary search: histories hold seconds of post spikes)
  const auto after = std::partition_point(history.begin(), history.end(),
                                          [&](const Entry& e) { return t_ms - e.t_ms > eps_ms; });
  if (after == history.begin()) return 0.0;
  const Entry& last = *(after - 1);
  return last.k_minus * std::exp((last.t_ms - t_ms) / tau_minus);
}

std::pair<size_t, size_t> SpikeArchive::window(double t1_ms, double t2_ms, double max_delay_ms) {
  // An entry read by every plastic synapse is only needed for K- lookups, which look at
  // most max_delay back, so it may go once its successor is older than that.
  while (history.size() > 1 && history.front().reads >= n_incoming &&
         t1_ms - history[1].t_ms > max_delay_ms + eps_ms)
    history.pop_front();
  if (history.empty() || history.back().t_ms < t1_ms + eps_ms) return {history.size(), history.size()};
  const auto first = std::partition_point(history.begin(), history.end(),
                                          [&](const Entry& e) { return e.t_ms < t1_ms + eps_ms; });
  const auto last = std::partition_point(first, history.end(), [&](const Entry& e) { return e.t_ms < t2_ms + eps_ms; });
  for (auto it = first; it != last; ++it) ++it->reads;
  return {size_t(first - history.begin()), size_t(last - history.begin())};
}

}  // namespace ranvier
