// NEST's flush events (FlushEventMechanism): a neuron that has been silent for
// flush_event_send_interval since its last spike (or flush event) sends an event that only its
// e-prop synapses take, so that they process their traces and their targets can drop the history
// they no longer need. They travel beside the spikes: at the end of every cycle each rank's flush
// events go to every rank (an allgather, as coupled values do: e-prop networks are small), to
// be delivered after the cycle's spikes. e-prop synapses have a delay of one step, so the cycle
// is one step wherever they exist, and each source's spikes and flush events arrive in order.
#pragma once
#include <vector>

#include "core/spike.hpp"
#include "kernel/thread_state.hpp"
#include "parallel/communicator.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {

class FlushEvents {
 public:
  // Collective: active where any rank has e-prop synapses.
  void prepare(const std::vector<ThreadState>& threads, const std::vector<SynapseModel>& models, Communicator& comm);
  bool active() const { return active_; }
  // Master thread, at the end of a cycle: every thread's flush events of every rank, by gid.
  void end_cycle(std::vector<ThreadState>& threads, Communicator& comm);
  const std::vector<Spike>& received() const { return received_; }

 private:
  bool active_ = false;
  std::vector<Spike> received_;
};

}  // namespace ranvier
