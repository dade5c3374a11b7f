// A number some models send with each spike in NEST's offset field, where it is no time
// (NEST's iaf_tum_2000: the synaptic resource its spike releases). The spike itself travels
// on the grid through the exchange methods; its number, exactly, beside it: at the end of every
// cycle each rank's go to every rank (an allgather, as flush events do: these models come in
// small networks). Delivery then hands each such spike's number to its targets as its offset.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/thread_state.hpp"
#include "parallel/communicator.hpp"

namespace ranvier {

class SpikePayloads {
 public:
  // Collective: active where any rank has neurons whose spikes carry a number.
  void prepare(const std::vector<ThreadState>& threads, Communicator& comm);
  bool active() const { return active_; }
  // Master thread, at the end of a cycle: every thread's numbers of every rank, keeping those
  // of spikes from step `keep_from` on (a spike may wait that long for its delivery).
  void end_cycle(std::vector<ThreadState>& threads, Communicator& comm, int64_t keep_from);
  // The number a spike carries, or null where it carries none.
  const double* find(uint32_t gid, int64_t stamp) const;
  // Checkpoints: those received (every rank holds the same), and their restoration.
  const std::vector<SpikePayload>& received() const { return received_; }
  void restore(std::vector<SpikePayload> received);

 private:
  bool active_ = false;
  std::vector<SpikePayload> received_;  // by (gid, stamp)
};

}  // namespace ranvier
