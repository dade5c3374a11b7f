// Post-synaptic spike histories of one thread's neurons, for spike-timing dependent
// plasticity (NEST's archiving node). Each spike is kept (as its step) with the trace K- just
// after it and the number of incoming plastic synapses that have read it, until all have.
// A precise neuron's spike also keeps how far before its step's end it lay: NEST's STDP reads
// such a spike at its exact time. Its K- is kept as it stands at the step's end, so that
// lookups decay it by whole steps as for any other spike.
// Every plastic event reads its target's K-, and most events' windows hold at most the
// target's four latest spikes, so those live in two adjacent cache lines per neuron; older
// spikes wait in a history that is consulted only when a window reaches back to them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "core/decay_table.hpp"

namespace ranvier {

class SpikeArchives {
 public:
  static constexpr int64_t never = INT64_MIN;  // the stamp of no spike: before any window
  // Offsets are kept in units of a step, finer than those off-grid spikes travel in.
  static constexpr uint32_t offset_units = 1u << 31;
  struct Entry {
    int64_t stamp = never;
    double k_minus = 0.0;  // at the end of the spike's step
    uint32_t reads = 0;
    uint32_t offset = 0;  // before the step's end, in offset_units
  };
  // Spikes kept beside the history: brunel-small's windows reach past 4 at 0.4 % of plastic
  // events (past 2: 5 %).
  static constexpr int kept = 4;
  struct alignas(128) Recent {
    Entry entries[kept];                // the newest spikes, oldest first
    int64_t older = never;              // newest spike of the history
    const DecayTable* decay = nullptr;  // exp(-steps h / tau_minus)
    const Entry& last() const { return entries[kept - 1]; }
  };

  // Archives for n neurons (those of earlier preparations keep their history), keeping
  // entries no longer than `keep_steps` after all their readers have read them (the longest
  // a K- lookup reaches back); the incoming synapses are counted afresh.
  void resize(size_t n, int64_t keep_steps, double h);
  bool empty() const { return recent_.empty(); }
  void set_tau_minus(size_t column, double tau);
  void add_incoming(size_t column) { ++n_incoming_[column]; }
  // Keeps the neuron's triplet trace (tau: its tau_minus_triplet) from now on, for the triplet
  // STDP synapses that read it: its value just after each kept spike, at the spike's time.
  void keep_triplet(size_t column, double tau);
  // The triplet trace just before the neuron's kept spike at `stamp` (0 where it keeps none).
  double triplet_before(size_t column, int64_t stamp) const;
  // Keeps `width` values the neuron gives with each spike from now on (a NESTML neuron's
  // variables moved from the synapses paired with it, just after the spike), for the synapses
  // that read them.
  void keep_values(size_t column, uint32_t width);
  // The values kept with the neuron's spike at `stamp` (null where it keeps none), and with its
  // newest spike before `step` (null where there is none; `stamp` set to that spike's).
  const double* values_after(size_t column, int64_t stamp) const;
  const double* values_before(size_t column, int64_t step, int64_t& stamp) const;

  // A spike at the end of `stamp`, or `offset_ms` before it, with the values the neuron keeps
  // with it (keep_values), if any.
  void record(size_t column, int64_t stamp, double offset_ms = 0.0, const double* values = nullptr);
  // Delivery walks a run of targets; fetching a record some targets ahead hides its latency.
  void prefetch(size_t column) const {
    __builtin_prefetch(&recent_[column]);
    __builtin_prefetch(reinterpret_cast<const char*>(&recent_[column]) + 64);
  }
  bool spiked_after(size_t column, int64_t step) const { return recent_[column].last().stamp > step; }
  // Trace K- just before the end of `step` (a spike at that time does not count, one earlier
  // in the step does, as NEST's stdp_eps has it).
  double k_minus_at(size_t column, int64_t step) const {
    const Recent& r = recent_[column];
    const Entry& last = r.last();
    if (step <= last.stamp) return k_minus_before_last(column, step);  // which sees an earlier spike in `step`
    return last.stamp == never ? 0.0 : last.k_minus * (*r.decay)(step - last.stamp);
  }
  // Nearest-neighbour trace just before `step`: the decay since the neuron's last spike before
  // it, 0 before its first (NEST's nearest_neighbor_Kminus).
  double nearest_k_minus_at(size_t column, int64_t step) const;
  // Visits the spikes with stamps t1 < t <= t2 of one neuron in order, as (stamp, offset:
  // early_ms(offset) before the stamp's end, 0 for a spike at the end), counting each after
  // `counted_after` as read once (a reader whose windows may overlap names where its last one
  // ended).
  template <class Visit>
  void visit_window(size_t column, int64_t t1, int64_t t2, Visit visit) {
    visit_window(column, t1, t2, t1, visit);
  }
  template <class Visit>
  void visit_window(size_t column, int64_t t1, int64_t t2, int64_t counted_after, Visit visit) {
    Recent& r = recent_[column];
    if (r.older > t1) {
      std::deque<Entry>& h = history_[column];
      auto it = std::partition_point(h.begin(), h.end(), [&](const Entry& e) { return e.stamp <= t1; });
      for (; it != h.end() && it->stamp <= t2; ++it) {
        if (it->stamp > counted_after) ++it->reads;
        visit(it->stamp, it->offset);
      }
    }
    for (Entry& e : r.entries)
      if (e.stamp > t1 && e.stamp <= t2) {
        if (e.stamp > counted_after) ++e.reads;
        visit(e.stamp, e.offset);
      }
  }

  double early_ms(uint32_t offset) const { return double(offset) * unit_ms_; }

  // Checkpoints: a neuron's kept spikes, oldest first; and the same put back into archives
  // resized for the network (its tau_minus set).
  std::vector<Entry> entries(size_t column) const;
  void restore(size_t column, const std::vector<Entry>& entries);
  // The values kept with each of entries(column)'s spikes (none for a spike without), and the same
  // put back.
  std::vector<std::vector<double>> kept_values(size_t column) const;
  void restore_kept(size_t column, const std::vector<Entry>& entries, const std::vector<std::vector<double>>& values);

 private:
  // The spike lies before the end of `step` by more than NEST's stdp_eps.
  bool before(const Entry& e, int64_t step) const {
    return e.stamp < step || (e.stamp == step && double(e.offset) > eps_units_);
  }
  double k_minus_before_last(size_t column, int64_t step) const;
  const Entry* newest_before(size_t column, int64_t step) const;

  // Values kept with a neuron's spikes, beside its archive (only neurons whose incoming synapses
  // read such values keep any, so the 128-byte Recent of every other neuron stays as it is): the triplet trace,
  // which the archive computes (`decay` set), or values the neuron gives.
  struct KeptSpike {
    int64_t stamp;
    uint32_t offset;
  };
  struct Kept {
    uint32_t width = 0;
    const DecayTable* decay = nullptr;  // the triplet trace's
    std::vector<KeptSpike> spikes;      // as far back as the archive keeps spikes
    std::vector<double> values;         // width per spike
  };
  void record_kept(size_t column, int64_t stamp, uint32_t offset, const double* values);
  Kept& kept_of(size_t column);  // made where none exists yet

  std::vector<Recent> recent_;
  std::vector<std::deque<Entry>> history_;
  std::vector<Kept> kept_;  // empty until a synapse reads values kept with this thread's spikes
  std::vector<uint32_t> n_incoming_;
  int64_t keep_steps_ = 0;
  double h_ = 0.0;
  double unit_ms_ = 0.0;                // an offset unit in ms
  double eps_units_ = 0.0;              // NEST's stdp_eps, 1e-6 ms, in offset units
  std::map<double, DecayTable> decay_;  // by tau_minus
};

}  // namespace ranvier
