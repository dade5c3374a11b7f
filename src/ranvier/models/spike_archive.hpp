// Post-synaptic spike histories of one thread's neurons, for spike-timing dependent
// plasticity (NEST's archiving node). Each spike is kept with the trace K- just after it and
// the number of incoming plastic synapses that have read it, until all have. Every plastic
// event reads its target's K-, and most events' windows hold at most the target's two latest
// spikes, so those live in one cache line per neuron; older spikes wait in a history that
// is consulted only when a window reaches back to them.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

namespace ranvier {

class SpikeArchives {
 public:
  struct Entry {
    double t_ms = -INFINITY;  // no spike: earlier than any window
    double k_minus = 0.0;
    uint32_t reads = 0;
  };
  struct alignas(64) Recent {
    Entry last, previous;
    double older_ms = -INFINITY;  // newest spike of the history
    double tau_minus = 20.0;
  };

  // Archives for n neurons (those of earlier preparations keep their history), keeping
  // entries no longer than `keep_ms` after all their readers have read them (the longest a
  // K- lookup reaches back); the incoming synapses are counted afresh.
  void resize(size_t n, double keep_ms);
  bool empty() const { return recent_.empty(); }
  void set_tau_minus(size_t lid, double tau) { recent_[lid].tau_minus = tau; }
  void add_incoming(size_t lid) { ++n_incoming_[lid]; }

  void record(size_t lid, double t_ms);
  // Delivery walks a run of targets; fetching a record some targets ahead hides its latency.
  void prefetch(size_t lid) const { __builtin_prefetch(&recent_[lid]); }
  // Whether the neuron spiked after t (within the rounding of grid times).
  bool spiked_after(size_t lid, double t_ms) const { return recent_[lid].last.t_ms > t_ms + eps_ms; }
  // Trace K- just before time t (spikes at exactly t do not count).
  double k_minus_at(size_t lid, double t_ms) const;
  // Visits the spike times t1 < t <= t2 of one neuron in order, counting each as read once.
  template <class Visit>
  void visit_window(size_t lid, double t1_ms, double t2_ms, Visit visit) {
    Recent& r = recent_[lid];
    if (r.older_ms > t1_ms + eps_ms) {
      std::deque<Entry>& h = history_[lid];
      auto it = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return e.t_ms < t1_ms + eps_ms; });
      for (; it != h.end() && it->t_ms < t2_ms + eps_ms; ++it) {
        ++it->reads;
        visit(it->t_ms);
      }
    }
    for (Entry* e : {&r.previous, &r.last})
      if (e->t_ms > t1_ms + eps_ms && e->t_ms < t2_ms + eps_ms) {
        ++e->reads;
        visit(e->t_ms);
      }
  }

 private:
  static constexpr double eps_ms = 1e-6;  // spike times are grid points; this only absorbs rounding
  std::vector<Recent> recent_;
  std::vector<std::deque<Entry>> history_;
  std::vector<uint32_t> n_incoming_;
  double keep_ms_ = 0.0;
};

}  // namespace ranvier
