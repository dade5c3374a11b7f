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
  void resize(size_t n_slots, size_t n_local) {
    n_slots_ = n_slots;
    n_local_ = n_local;
    excitatory_.assign(n_slots * n_local, 0.0);
    inhibitory_.assign(n_slots * n_local, 0.0);
    current_.assign(n_slots * n_local, 0.0);
  }
  // New shape, keeping the input already scheduled for steps from `now` on.
  void reshape(size_t n_slots, size_t n_local, int64_t now) {
    RingBuffers next;
    next.resize(n_slots, n_local);
    const size_t kept = n_slots_ == 0 ? 0 : std::min(n_slots, n_slots_);
    for (int64_t s = now; s < now + int64_t(kept); ++s) {
      InputRow from = row(s), to = next.row(s);
      std::copy(from.excitatory, from.excitatory + n_local_, to.excitatory);
      std::copy(from.inhibitory, from.inhibitory + n_local_, to.inhibitory);
      std::copy(from.current, from.current + n_local_, to.current);
    }
    *this = std::move(next);
  }
  size_t slots() const { return n_slots_; }
  InputRow row(int64_t step) {
    const size_t base = size_t(step % int64_t(n_slots_)) * n_local_;
    return {excitatory_.data() + base, inhibitory_.data() + base, current_.data() + base};
  }
  // Synaptic input routed by sign, as NEST's current-based neurons do.
  void add_weight(int64_t step, uint32_t lid, double weight) {
    const size_t at = size_t(step % int64_t(n_slots_)) * n_local_ + lid;
    (weight >= 0.0 ? excitatory_ : inhibitory_)[at] += weight;
  }
  void add_current(int64_t step, uint32_t lid, double amplitude) {
    current_[size_t(step % int64_t(n_slots_)) * n_local_ + lid] += amplitude;
  }
  size_t bytes() const { return 3 * n_slots_ * n_local_ * sizeof(double); }

 private:
  size_t n_slots_ = 0, n_local_ = 0;
  std::vector<double> excitatory_, inhibitory_, current_;
};

}  // namespace ranvier
