// Post-synaptic spike histories of one thread's neurons, for spike-timing dependent
// plasticity (NEST's archiving node). Every plastic event reads its target's trace K-, and
// most see at most the target's latest spike in their window, so the latest spike (with its
// K- and read count) and the time of the one before sit in one compact record per neuron;
// older spikes (time, K- after it, how many incoming plastic synapses have read it) wait in
// a history that is consulted only when an event's window reaches back to them.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

namespace ranvier {

class SpikeArchives {
 public:
  struct Trace {
    double last_spike_ms = -INFINITY;      // no spike yet: earlier than any window
    double k_minus = 0.0;                  // just after the last spike
    double previous_spike_ms = -INFINITY;  // newest entry of the history
    double tau_minus = 20.0;
    uint32_t last_reads = 0;           // plastic synapses that have read the last spike
  };
  struct Entry {
    double t_ms;
    double k_minus;
    uint32_t reads;
  };

  // Archives for n neurons (those of earlier preparations keep their history), keeping
  // entries no longer than `keep_ms` after all their readers have read them (the longest a
  // K- lookup reaches back); the incoming synapses are counted afresh.
  void resize(size_t n, double keep_ms);
  bool empty() const { return trace_.empty(); }
  void set_tau_minus(size_t lid, double tau) { trace_[lid].tau_minus = tau; }
  void add_incoming(size_t lid) { ++n_incoming_[lid]; }

  void record(size_t lid, double t_ms);
  // Whether the neuron spiked after t (within the rounding of grid times).
  bool spiked_after(size_t lid, double t_ms) const { return trace_[lid].last_spike_ms > t_ms + eps_ms; }
  // Trace K- just before time t (spikes at exactly t do not count).
  double k_minus_at(size_t lid, double t_ms) const;
  // Visits the spike times t1 < t <= t2 of one neuron in order, counting each as read once.
  template <class Visit>
  void visit_window(size_t lid, double t1_ms, double t2_ms, Visit visit) {
    Trace& tr = trace_[lid];
    if (tr.previous_spike_ms > t1_ms + eps_ms) {
      std::deque<Entry>& h = history_[lid];
      auto it = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return e.t_ms < t1_ms + eps_ms; });
      for (; it != h.end() && it->t_ms < t2_ms + eps_ms; ++it) {
        ++it->reads;
        visit(it->t_ms);
      }
    }
    if (tr.last_spike_ms > t1_ms + eps_ms && tr.last_spike_ms < t2_ms + eps_ms) {
      ++tr.last_reads;
      visit(tr.last_spike_ms);
    }
  }

 private:
  static constexpr double eps_ms = 1e-6;  // spike times are grid points; this only absorbs rounding
  std::vector<Trace> trace_;
  std::vector<std::deque<Entry>> history_;
  std::vector<uint32_t> n_incoming_;
  double keep_ms_ = 0.0;
};

}  // namespace ranvier
