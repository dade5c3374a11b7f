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
  for (auto it = history.rbegin(); it != history.rend(); ++it)
    if (t_ms - it->t_ms > eps_ms) return it->k_minus * std::exp((it->t_ms - t_ms) / tau_minus);
  return 0.0;
}

std::pair<size_t, size_t> SpikeArchive::window(double t1_ms, double t2_ms, double max_delay_ms) {
  // An entry read by every plastic synapse is only needed for K- lookups, which look at
  // most max_delay back, so it may go once its successor is older than that.
  while (history.size() > 1 && history.front().reads >= n_incoming &&
         t1_ms - history[1].t_ms > max_delay_ms + eps_ms)
    history.pop_front();
  size_t begin = 0;
  while (begin < history.size() && history[begin].t_ms < t1_ms + eps_ms) ++begin;
  size_t end = begin;
  while (end < history.size() && history[end].t_ms < t2_ms + eps_ms) ++history[end++].reads;
  return {begin, end};
}

}  // namespace ranvier
