// Input of the neurons of one thread for the next steps: one row per step (modulo the ring
// size), one column per local neuron, separate rows for excitatory, inhibitory and current
// input. Deliver adds into future rows; update reads and clears the row of its step.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ranvier {

struct InputRow {
  double* excitatory;
  double* inhibitory;
  double* current;
};

class RingBuffers {
 public:
  void resize(size_t n_slots, size_t n_local, bool long_range = false) {
    n_slots_ = n_slots;
    n_local_ = n_local;
    excitatory_.assign(n_slots * n_local, 0.0);
    inhibitory_.assign(n_slots * n_local, 0.0);
    current_.assign(n_slots * n_local, 0.0);
    long_excitatory_.assign(long_range ? n_slots * n_local : 0, 0.0);
    long_inhibitory_.assign(long_range ? n_slots * n_local : 0, 0.0);
  }
  // New shape, keeping the input already scheduled for steps from `now` on.
  void reshape(size_t n_slots, size_t n_local, bool long_range, int64_t now) {
    RingBuffers next;
    next.resize(n_slots, n_local, long_range);
    const size_t kept = n_slots_ == 0 ? 0 : std::min(n_slots, n_slots_);
    for (int64_t s = now; s < now + int64_t(kept); ++s) {
      const size_t from = offset(s), to = next.offset(s);
      auto copy = [&](const std::vector<double>& a, std::vector<double>& b) {
        if (!a.empty() && !b.empty()) std::copy_n(a.begin() + long(from), n_local_, b.begin() + long(to));
      };
      copy(excitatory_, next.excitatory_);
      copy(inhibitory_, next.inhibitory_);
      copy(current_, next.current_);
      copy(long_excitatory_, next.long_excitatory_);
      copy(long_inhibitory_, next.long_inhibitory_);
    }
    *this = std::move(next);
  }
  // Long-range input (area placement) accumulates apart and joins the row just before the
  // step is updated, so every sum has the same order whenever long-range spikes arrive.
  void fold_long(int64_t step) {
    if (long_excitatory_.empty()) return;
    const size_t at = offset(step);
    for (size_t i = 0; i < n_local_; ++i) {
      excitatory_[at + i] += long_excitatory_[at + i];
      inhibitory_[at + i] += long_inhibitory_[at + i];
      long_excitatory_[at + i] = long_inhibitory_[at + i] = 0.0;
    }
  }
  size_t offset(int64_t step) const { return slot(step) * n_local_; }
  InputRow row(int64_t step) {
    const size_t base = offset(step);
    return {excitatory_.data() + base, inhibitory_.data() + base, current_.data() + base};
  }
  // Slot of a step; delivery computes it once per spike and adds the delay (< slots).
  size_t slot(int64_t step) const { return size_t(step % int64_t(n_slots_)); }
  size_t slot_after(size_t slot, uint32_t steps) const {
    const size_t s = slot + steps;
    return s >= n_slots_ ? s - n_slots_ : s;
  }
  // The row that input of this sign at this slot goes to (indexed by local neuron).
  double* row_for(size_t slot, double weight, bool long_range) {
    std::vector<double>& rows = long_range ? (weight >= 0.0 ? long_excitatory_ : long_inhibitory_)
                                           : (weight >= 0.0 ? excitatory_ : inhibitory_);
    return rows.data() + slot * n_local_;
  }
  void add_at_slot(size_t slot, uint32_t lid, double weight, bool long_range) {
    row_for(slot, weight, long_range)[lid] += weight;
  }
  // Synaptic input routed by sign, as NEST's current-based neurons do.
  void add_weight(int64_t step, uint32_t lid, double weight) { add_at_slot(slot(step), lid, weight, false); }
  void add_current(int64_t step, uint32_t lid, double amplitude) { current_[offset(step) + lid] += amplitude; }
  size_t bytes() const {
    return (excitatory_.size() + inhibitory_.size() + current_.size() + long_excitatory_.size() +
            long_inhibitory_.size()) * sizeof(double);
  }

 private:
  size_t n_slots_ = 0, n_local_ = 0;
  std::vector<double> excitatory_, inhibitory_, current_;
  std::vector<double> long_excitatory_, long_inhibitory_;
};

}  // namespace ranvier
