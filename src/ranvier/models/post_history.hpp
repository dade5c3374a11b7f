// What a neuron writes at the end of its steps for the plastic synapses onto it that read it in
// windows between their source's spikes (NEST's Clopath and Urbanczik archiving nodes; their
// neurons and synapses: models/clopath_history.hpp, models/urbanczik.hpp). The kernel counts the
// incoming synapses of each kind before a run (kernel/synapse_targets.cpp); a neuron without any
// writes nothing, as in NEST.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/neuron_group.hpp"

namespace ranvier {

// The synapse models that read such histories, by the history they read.
enum class PostHistory : uint8_t { none, clopath, urbanczik };

// Entries written at the ends of some steps, dropped once every incoming synapse has read them
// (the newest stays), as NEST's histentry_extended deques.
class StepHistory {
 public:
  struct Entry {
    int64_t stamp;  // the step at whose end it was written
    double value;
    uint32_t reads = 0;
  };
  void push(int64_t stamp, double value, uint32_t incoming) {
    while (entries_.size() > 1 && entries_.front().reads >= incoming) entries_.pop_front();
    entries_.push_back({stamp, value});
  }
  // Visits the entries of steps t1 < stamp <= t2 in order as (stamp, value), counting each read.
  template <class Visit>
  void visit(int64_t t1, int64_t t2, Visit visit) {
    auto it = std::partition_point(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.stamp <= t1; });
    for (; it != entries_.end() && it->stamp <= t2; ++it) ++it->reads, visit(it->stamp, it->value);
  }
  // Checkpoints: the entries appended as numbers, and put back.
  void save(std::vector<double>& out) const {
    out.push_back(double(entries_.size()));
    for (const Entry& e : entries_) out.insert(out.end(), {double(e.stamp), e.value, double(e.reads)});
  }
  const double* load(const double* from) {
    entries_.resize(size_t(*from++));
    for (Entry& e : entries_) e = {int64_t(from[0]), from[1], uint32_t(from[2])}, from += 3;
    return from;
  }

 private:
  std::deque<Entry> entries_;
};

// The group state of neurons with such histories: per neuron its incoming synapses that read
// them, and how far back (steps) they read values looked up by step.
struct PostHistoryState : CellState {
  explicit PostHistoryState(size_t n) : incoming(n, 0) {}
  std::vector<uint32_t> incoming;
  int64_t keep = 0;
};

}  // namespace ranvier
