// The simulation kernel of one process (one MPI rank), a facade over its parts: the network
// (local_network.hpp: this rank's share of the nodes, placed on virtual processes (rank,
// thread), connections stored on the thread of their target), the exchange (pathways.hpp),
// and its own part, the simulation: the deliver / update / collocate / communicate cycle,
// status and the gathering of recorded events.
#pragma once
#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/decay_table.hpp"
#include "core/tics.hpp"
#include "kernel/config.hpp"
#include "kernel/coupling.hpp"
#include "kernel/flush_events.hpp"
#include "kernel/local_network.hpp"
#include "kernel/pathways.hpp"
#include "kernel/settings.hpp"
#include "kernel/snapshot.hpp"
#include "kernel/spike_payloads.hpp"
#include "kernel/structural_plasticity.hpp"

namespace ranvier {

using StatusValue = SettingValue;

class Kernel {
 public:
  explicit Kernel(const KernelConfig& config);
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  int threads() const { return int(network_.threads().size()); }
  double resolution() const { return h_; }
  uint32_t node_count() const { return network_.node_count(); }
  int64_t step() const { return origin_ + lag_; }
  uint64_t spikes_emitted() const;  // by this rank's neurons since the network was built
  int64_t tics_per_ms() const { return config_.tics_per_ms; }
  int64_t step_tics() const { return tics_per_step(h_, config_.tics_per_ms); }
  double ms_of(int64_t steps) const {
    return ms_of_tics(steps * tics_per_step(h_, config_.tics_per_ms), config_.tics_per_ms);
  }
  Communicator& comm() { return *comm_; }
  int rank() const { return rank_; }

  // The network part (local_network.hpp): creating, locating and connecting nodes, reading and
  // changing them. Only what also involves the simulation's state is the kernel's own below.
  LocalNetwork& network() { return network_; }
  const LocalNetwork& network() const { return network_; }
  // Variables change at the current step (NEST's set of a node's state between runs).
  void set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                     const std::vector<std::vector<double>>& values, const std::vector<std::string>& list_names = {},
                     const std::vector<std::vector<std::vector<double>>>& list_values = {}) {
    network_.set_variables(names, gids, values, list_names, list_values, step());
  }
  // delay: a spike generator's train reaches a spike recorder that much later.
  void connect_recorder(uint32_t recorder, const std::vector<uint32_t>& nodes, double delay = 1.0, uint32_t port = 0,
                        double weight = 1.0) {
    network_.connect_recorder(recorder, nodes, delay, events_, port, weight);
  }
  // Reading connections needs the sorted tables: a rank's own are sorted where they are (no
  // other rank takes part, as a NEST rank reads its connections alone); all ranks' are
  // gathered once the kernel is prepared (collective).
  ConnectionList get_connections(const std::vector<uint32_t>* sources, const std::vector<uint32_t>* targets,
                                 int synapse, bool local_only) {
    if (local_only)
      network_.finalize_tables();
    else
      prepare();
    return network_.get_connections(sources, targets, synapse, local_only);
  }
  void set_connections(const ConnectionList& which, const std::vector<uint32_t>& multapse, const std::string& parameter,
                       const std::vector<double>& values) {
    prepare();
    network_.set_connections(which, multapse, parameter, values);
  }
  void disconnect(const ConnectionList& which, const std::vector<uint32_t>& multapse) {
    prepare();
    network_.disconnect(which, multapse);
  }

  // Settings (SetKernelStatus): a live one by name (settings.hpp), checked, through its setter.
  const KernelConfig& config() const { return config_; }
  // Settings given together (SetKernelStatus once nodes exist), checked as a whole.
  void set(const std::vector<std::pair<std::string, SettingValue>>& given);
  void set_exchange(const std::string& method, int multisend_phases);
  void set_sync_barrier(bool on) { config_.sync_barrier = on; }
  // Draws from now on (connections, parameters, input, intrinsic noise) use this seed; nodes
  // already placed stay where they are.
  void set_seed(uint32_t seed) { seed_ = config_.seed = seed; }
  void set_record_cycle_times(bool on) { config_.record_cycle_times = on; }
  // With areas D depends on it (one cycle less under overlap), so the network prepares again.
  void set_overlap_exchange(bool on) {
    if (on != config_.overlap_exchange && long_range_) prepared_ = false;
    config_.overlap_exchange = on;
  }
  void set_multisend_subintervals(int n);
  void set_persistent_exchange(bool on) {
    config_.persistent_exchange = on;
    pathways_.set_persistent(on);
  }
  void set_max_D(int d);
  // Spikes are identical either way, so it may change between any two Simulate calls.
  void set_queued_input(const std::string& mode);

  // Advances by `steps`; with structural plasticity enabled, the connectivity changes at the
  // start of each cycle whose time is a multiple of its update interval (NEST's test).
  void simulate(int64_t steps);
  // A user's Run starts, which Python may simulate in pieces: NEST's local_spike_counter counts from here.
  void begin_run() { spikes_before_run_ = spikes_emitted(); }
  // A user's Run ended: every archiving neuron's calcium and synaptic elements are brought up
  // to now, where NEST's update brings them at the end of each run.
  void end_run() { StructuralPlasticity::advance_all(network_, nest_ms(step()), nest_ms(1)); }
  // NEST's structural plasticity (kernel/structural_plasticity.hpp).
  StructuralPlasticity& structural_plasticity() { return structural_; }
  // Events of a recorder in (time, sender) order (a weight recorder's: then target); values
  // has record_from.size() columns. Rank 0 holds every rank's (gathered at the end of each
  // simulate, a collective step anyway), any other rank its own: reading never communicates.
  const RecordedEvents& events(uint32_t recorder);
  // Frees the events of a recorder held so far (a streaming backend wrote them); returns how many.
  size_t forget_events(uint32_t recorder);

  // Checkpoints (kernel/checkpoint.cpp; connections in checkpoint_connections.cpp): this rank's
  // state beyond the network's structure, addressed by node id and connection (collective: the
  // kernel prepares first), and after it each thread's connections between neurons as one
  // segment, with its targets' node ids. A loading partition, whose network was rebuilt the
  // same, stages the segments that hold any of its nodes (hosts_any), then takes up the state of
  // every rank's snapshot (the clock is set and the kernel prepared here; collective).
  Snapshot snapshot();
  Snapshot snapshot_connections(size_t thread);
  bool hosts_any(const std::vector<uint32_t>& gids) const;
  void stage_connections(const Snapshot& segment);
  void resume(const Snapshot& all);
  // A recorder's events from before a checkpoint, kept by rank 0 as its gathered ones.
  void restore_events(uint32_t recorder, RecordedEvents events);

  // Seconds this rank spent in each phase of the cycle, in the cycle's order (GetKernelStatus's
  // time_<phase>, and phase_times_all_ranks).
  std::vector<std::pair<const char*, double>> cycle_phase_times() const;
  // Settings and measurements of this rank, each with its own type.
  std::map<std::string, StatusValue> status() const;
  // This rank's connections, devices' and recorders' included (NEST's num_connections), sorted
  // or not yet.
  int64_t local_connections() const;
  const std::vector<double>& cycle_times() const { return cycle_times_; }
  // Spike counts and buffer log of both pathways together.
  ExchangeCounters exchange_counters() const { return pathways_.counters(); }

 private:
  friend class SliceContext;
  void prepare();
  // prepare(), and under MPI every rank raises where any fails.
  void prepare_on_every_rank();
  // simulate() between structural updates.
  void run(int64_t steps);
  void update_structure();
  // The deliver phase of a cycle on one thread: what the last cycle sent (kernel/simulate.cpp).
  void deliver_received(ThreadState& ts, int thread);
  double nest_ms(int64_t steps) const { return NestTime{step_tics(), tics_per_ms()}(steps); }
  void prepare_delays();
  void prepare_thread(ThreadState& ts, bool plastic);
  // Spikes (or, where `flush`, flush events, which e-prop synapses alone take) into the tables.
  void deliver(ThreadState& ts, std::vector<ConnectionTable>& tables, const Spike* begin, const Spike* end,
               bool long_range, bool flush = false);
  // The owners of a thread's input columns, where the thread has synapses that reach into their
  // targets (e-prop, NESTML), and each e-prop neuron's count of e-prop synapses.
  void prepare_synapse_targets(ThreadState& ts);
  EpropSchedule eprop_schedule() const {
    return {std::llround(config_.eprop_update_interval / h_), std::llround(config_.eprop_learning_window / h_),
            config_.eprop_reset_neurons_on_update};
  }
  void deliver_lumped(ThreadState& ts);
  // A volume transmitter's delivery on one thread at the end of step stamp - 1.
  void neuromodulate(ThreadState& ts, uint32_t transmitter, int64_t stamp);
  void stimulate(ThreadState& ts);
  void record_taps(ThreadState& ts, int from, int to);
  void record_generators(ThreadState& ts, int from, int to);
  void prepare_stimulators();
  void tabulate();
  std::vector<Spike> collocate();
  void end_cycle();
  void start_epoch_exchange();
  // Cycles a long-range spike may wait for its delivery: D, and one more while its exchange
  // travels during the next cycle (overlap_exchange).
  int long_wait() const { return D_ + (config_.overlap_exchange ? 1 : 0); }
  // How far back (steps) plastic synapses read their targets' histories: a spike may reach them
  // long_wait() cycles late.
  int64_t history_steps() const { return max_delay_ + (long_wait() + 1) * min_delay_; }
  // The master thread's update while an exchange is in flight (overlap_exchange).
  void update_progressing(ThreadState& ts, UpdateContext& ctx, int from, int to);
  // Waveform relaxation of the cycle's instantaneous coupling, by every thread (Coupling).
  void relax_coupling(ThreadState& ts, UpdateContext& ctx, int thread);
  void agree_on_failure(std::exception_ptr error);
  void collect_events();
  RecordedEvents& stored_events(uint32_t recorder);

  KernelConfig config_;
  std::shared_ptr<Communicator> comm_;
  int rank_ = 0;
  double h_;
  uint32_t seed_;
  std::vector<RecordedEvents> events_;  // by device index, merged over threads and ranks
  int64_t origin_ = 0;                  // first step of the current slice
  int lag_ = 0;                         // steps of the current slice already done
  int min_delay_ = 0, max_delay_ = 0;   // steps; min_delay_ is the cycle (intra-area)
  uint32_t offset_units_ = 1;           // units of a step in which off-grid spikes travel (LagCode::units_for)
  int min_delay_inter_ = 0;             // steps, smallest long-range (inter-area) delay
  int D_ = 1;                           // cycles per global exchange of long-range spikes
  bool long_range_ = false;             // are there connections between areas?
  bool prepared_ = false;               // for the settings and network_.revision() below
  uint64_t prepared_revision_ = 0;
  std::exception_ptr cycle_error_;
  uint64_t spikes_before_run_ = 0;  // spikes emitted before the last Run (NEST's local_spike_counter)
  std::vector<double> cycle_times_;
  Stopwatch cycle_clock_;  // started by the master thread at each cycle's deliver
  PhaseTimes times_;
  LocalNetwork network_;      // the network part
  SpikePathways pathways_;    // the exchange part
  Coupling coupling_;         // secondary events between coupled nodes (rates, gap junctions)
  FlushEvents flush_events_;  // to e-prop synapses
  SpikePayloads payloads_;    // numbers spikes carry in NEST's offset field
  StructuralPlasticity structural_;
  int64_t structure_updated_at_ = -1;  // the step of the last structural update
  int64_t delivered_ahead_ = -1;       // a cycle whose deliver phase came before its structural update
};

}  // namespace ranvier
