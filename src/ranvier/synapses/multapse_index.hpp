// The index of each connection among those of its source's run with the same target:
// multapses come in creation order, which does not depend on the partition, so a synapse
// model that draws per connection (bernoulli_synapse, quantal_stp_synapse) keys its draws
// by (source, target, multapse index) and gets the same numbers for any threads or processes.
#pragma once
#include <cstdint>
#include <vector>

namespace ranvier {

class MultapseIndex {
 public:
  // A new run over a thread with n_inputs input columns (the targets' columns).
  void start(size_t n_inputs) {
    if (seen_.size() < n_inputs) seen_.resize(n_inputs, 0), count_.resize(n_inputs, 0);
    ++run_;
  }
  uint32_t next(uint32_t column) {
    if (seen_[column] != run_) seen_[column] = run_, count_[column] = 0;
    return count_[column]++;
  }

 private:
  std::vector<uint64_t> seen_;  // run in which a target was last seen
  std::vector<uint32_t> count_;
  uint64_t run_ = 0;
};

}  // namespace ranvier
