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
  // A new run over a thread with n_local neurons.
  void start(size_t n_local) {
    if (seen_.size() < n_local) seen_.resize(n_local, 0), count_.resize(n_local, 0);
    ++run_;
  }
  uint32_t next(uint32_t lid) {
    if (seen_[lid] != run_) seen_[lid] = run_, count_[lid] = 0;
    return count_[lid]++;
  }

 private:
  std::vector<uint64_t> seen_;  // run in which a target was last seen
  std::vector<uint32_t> count_;
  uint64_t run_ = 0;
};

}  // namespace ranvier
