// Rate connections between rate neurons (NEST's secondary events; Hahne et al. 2015, 2017).
// At the end of every cycle each rate neuron hands over the rate at the start of each step of
// the cycle, and the value its instantaneous connections hold through the next cycle. Every
// rank receives all of them (an allgather: rate networks are small), and at the start of the
// next cycle each thread adds them, in ascending order of source, into its targets: delayed
// rates into the input rows of the step they arrive in, instantaneous ones into the targets'
// RateBuffers. So every sum has the same order for any partition.
//
// With waveform relaxation (use_wfr) the cycle's instantaneous input is iterated before the
// cycle is updated: every rate neuron runs the cycle on the last pass's input and sends what it
// got, until no rate moves by more than wfr_tol (or wfr_max_iterations passes), all ranks
// together. Without it the instantaneous connections' delay is one step (the cycle then is one
// step too), as in NEST.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/thread_state.hpp"
#include "models/rate_model.hpp"
#include "parallel/communicator.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {

class RateCoupling {
 public:
  // Finds the rate groups and rate connections of every thread and shapes the buffers for a
  // cycle of min_delay steps; collective: every rank learns whether any has rate connections.
  void prepare(std::vector<ThreadState>& threads, const std::vector<SynapseModel>& models, Communicator& comm,
               int min_delay, bool use_wfr);
  bool active() const { return active_; }
  bool relaxes() const { return relaxes_; }
  // Master thread, at the end of the cycle: every rank's rates of it.
  void end_cycle(Communicator& comm);
  // Each thread at the start of the cycle from `origin`: the last cycle's rates into its targets.
  void deliver(ThreadState& ts, int thread, int64_t origin);
  // One relaxation pass of a thread's rate neurons over the cycle in ctx; then (master) every
  // rank's rates of the pass and whether all settled; then each thread's new instantaneous input.
  void relax(int thread, UpdateContext& ctx, double tol);
  void end_pass(Communicator& comm);
  void deliver_pass(ThreadState& ts, int thread);
  bool settled() const { return settled_; }
  // Cycles whose relaxation stopped at wfr_max_iterations before it settled (NEST warns).
  uint64_t unsettled_cycles() const { return unsettled_cycles_; }
  void count_unsettled() { ++unsettled_cycles_; }

 private:
  struct Target {
    NeuronGroup* group = nullptr;  // null: the column is no rate neuron's
    uint32_t neuron = 0;
  };
  // Rates of every rank's rate neurons, by ascending gid: `width` values each.
  struct Rates {
    std::vector<uint32_t> gids;
    std::vector<double> values;
    size_t width = 0;
  };
  // This rank's rates: the first `steps` values of RateBuffers::sent, then `held` ones if asked.
  Rates gather_local(bool held) const;
  static void gather_ranks(Rates& rates, Communicator& comm);
  // The instantaneous input of a thread's rate neurons from `rates`: per step, or each
  // neuron's held value for all steps.
  void add_instant(ThreadState& ts, int thread, const Rates& rates, bool per_step);
  template <class Add>
  void each_connection(ThreadState& ts, int thread, RateEvent kind, const Rates& rates, Add add) const;

  bool active_ = false, relaxes_ = false, settled_ = false;
  int steps_ = 1;
  std::vector<const SynapseModel*> models_;
  std::vector<std::vector<NeuronGroup*>> groups_;  // by thread
  std::vector<std::vector<Target>> targets_;       // by thread, by input column
  std::vector<uint8_t> thread_settled_;
  Rates cycle_, pass_;
  uint64_t unsettled_cycles_ = 0;
};

}  // namespace ranvier
