// Connections between coupled nodes (NEST's secondary events; Hahne et al. 2015, 2017): rate
// connections between rate neurons, diffusion connections between Siegert neurons, gap
// junctions, and e-prop's learning signals from readouts to the neurons they teach. At the end
// of every cycle each coupled neuron that sends hands over its values for every step of the
// cycle (a rate, a gap junction's interpolation of its potential, an error signal) and the value
// it holds through the next cycle. Every rank receives all of them (an allgather: such networks
// are small), and at the start of the next cycle each thread adds them, in ascending order of
// source, into its targets: delayed rates into the input rows of the step they arrive in,
// learning signals into the targets' e-prop histories, the others into the targets'
// CouplingBuffers. So every sum has the same order for any partition.
//
// With waveform relaxation (use_wfr) the cycle's instantaneous input is iterated before the
// cycle is updated: every coupled neuron runs the cycle on its partners' values of the last
// pass and sends what it got, until none moves by more than wfr_tol (or wfr_max_iterations
// passes), all ranks together. Without it instantaneous connections and gap junctions carry
// each partner's held value, and their delay (the cycle then) is one step, as in NEST.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/thread_state.hpp"
#include "models/coupled_model.hpp"
#include "parallel/communicator.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {

class Coupling {
 public:
  // Finds the coupled groups and connections of every thread and shapes the buffers for a
  // cycle of min_delay steps; collective: every rank learns whether any has such connections.
  void prepare(std::vector<ThreadState>& threads, const std::vector<SynapseModel>& models, Communicator& comm,
               int min_delay, bool use_wfr, int interpolation_order);
  bool active() const { return active_; }
  bool relaxes() const { return relaxes_; }
  // Master thread, at the end of the cycle: every rank's values of it.
  void end_cycle(Communicator& comm);
  // Each thread at the start of the cycle from `origin`: the last cycle's values into its targets.
  void deliver(ThreadState& ts, int thread, int64_t origin);
  // One relaxation pass of a thread's coupled neurons over the cycle in ctx; then (master)
  // every rank's values of the pass and whether all settled; then each thread's new input.
  void relax(int thread, UpdateContext& ctx, double tol);
  void end_pass(Communicator& comm);
  void deliver_pass(ThreadState& ts, int thread);
  bool settled() const { return settled_; }
  // Cycles whose relaxation stopped at wfr_max_iterations before it settled (NEST warns), and
  // the relaxation passes made.
  uint64_t unsettled_cycles() const { return unsettled_cycles_; }
  uint64_t passes() const { return passes_; }
  void count_unsettled() { ++unsettled_cycles_; }

 private:
  struct Target {
    NeuronGroup* group = nullptr;  // null: the column is no coupled neuron's
    uint32_t neuron = 0;
  };
  // Values of every rank's coupled neurons, by ascending gid: `width` each, the steps' values
  // (`stride` per step) and then, at the end of a cycle, the held one. A cycle's values may be
  // delivered after a new prepare changed the cycle or the interpolation order.
  struct Values {
    std::vector<uint32_t> gids;
    std::vector<double> values;
    size_t width = 0, stride = 1;
  };
  Values gather_local(bool held) const;
  static void gather_ranks(Values& values, Communicator& comm);
  // The instantaneous input of a thread's coupled neurons from `values`: per step, or each
  // source's held value for all steps.
  void add_instant(ThreadState& ts, int thread, const Values& values, bool per_step);
  template <class Add>
  void each_connection(ThreadState& ts, int thread, SecondaryEvent kind, const Values& values, Add add) const;

  bool active_ = false, relaxes_ = false, settled_ = false;
  int steps_ = 1;
  size_t stride_ = 1;  // values per step of every source: the most any coupled neuron sends
  std::vector<const SynapseModel*> models_;
  std::vector<std::vector<NeuronGroup*>> groups_;  // by thread
  std::vector<std::vector<Target>> targets_;       // by thread, by input column
  std::vector<uint8_t> thread_settled_;
  Values cycle_, pass_;
  uint64_t unsettled_cycles_ = 0, passes_ = 0;
};

}  // namespace ranvier
