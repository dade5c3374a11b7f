// The simulation kernel of one process (one MPI rank): its share of the nodes, placed on
// virtual processes (rank, thread), connections stored on the thread of their target, and
// the deliver / update / collocate / communicate cycle.
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

#include "core/tics.hpp"
#include "core/value_spec.hpp"
#include "kernel/config.hpp"
#include "kernel/pathways.hpp"
#include "kernel/placement.hpp"
#include "core/decay_table.hpp"
#include "core/rng.hpp"
#include "kernel/thread_state.hpp"
#include "models/neuron_model.hpp"
#include "parallel/communicator.hpp"

namespace ranvier {
namespace spatial {
class SpatialConnect;
}

struct ConnectionRule;
using StatusValue = std::variant<int64_t, double, bool, std::string>;


struct NodeRange {
  RangeLayout layout;                  // first gid, count and where the neurons live
  const NeuronModel* model = nullptr;  // null for devices
  std::shared_ptr<const CellKind> kind;  // what the cells are beyond named scalars (cable cells)
  uint32_t first_device = 0;           // devices: index of the first device of the range
  int area = -1;                       // -1: no area
  bool placed = true;                  // area placement places calls together, later
  std::vector<uint32_t> group;         // neurons: index of the group on each local thread
  bool targeted = false;               // a Connect call targeted these cells: their ports stay
  uint32_t recorded_ports = 0;         // a multimeter records a port's variable up to this port number
  uint32_t first_gid() const { return layout.first_gid; }
  uint32_t count() const { return layout.count; }
  // What area placement balances: cells x their cost per network step of h ms.
  uint64_t work(double h) const { return uint64_t(count()) * model->cost(kind.get(), h); }
};

struct ConnectRequest {
  std::string rule;
  std::vector<uint32_t> sources, targets;  // ascending gids (one_to_one: pairwise)
  int64_t degree = 0;                      // indegree, outdegree or N
  std::vector<int64_t> degrees;            // fixed_indegree: one in-degree per target, if given
  double p = 0.0;
  bool allow_autapses = true, allow_multapses = true;
  ValueSpec weight, delay;  // delay in ms
  uint32_t synapse = 0;
  std::shared_ptr<const spatial::SpatialConnect> spatial;
  uint32_t receptor = 0;                     // input port of the targets (receptor_type)
  std::map<std::string, double> parameters;  // per-connection parameters of the model's record  // set for spatial rules (masks, spatial p)
};

struct ConnectionList {
  std::vector<uint32_t> source, target, synapse;
  std::vector<double> weight, delay;
  // The record parameters of each connection's model in order (synapses/synapse_model.hpp),
  // record_width per connection, NaN beyond its model's.
  size_t record_width = 0;
  std::vector<double> record;
};

class Kernel {
 public:
  explicit Kernel(const KernelConfig& config);
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  int threads() const { return int(threads_.size()); }
  double resolution() const { return h_; }
  uint32_t node_count() const { return next_gid_ - 1; }
  int64_t step() const { return origin_ + lag_; }
  uint64_t spikes_emitted() const;  // by this rank's neurons since the network was built
  double ms_of(int64_t steps) const { return double(steps * std::llround(h_ * tics_per_ms)) / tics_per_ms; }
  Communicator& comm() { return *comm_; }
  int rank() const { return rank_; }
  int ranks() const { return placement_.ranks(); }  // pretended ranks in a dry run

  uint32_t create_neurons(const std::string& model, int64_t n, int area = -1,
                         std::shared_ptr<const CellKind> kind = nullptr);
  // Area placement: places the Create calls made since the last placement, all areas known.
  void place_areas();
  uint32_t create_devices(const std::string& model, int64_t n);
  // Removes the nodes of the last Create call (when their parameters were rejected).
  void undo_last_create();
  Device& device_of(uint32_t gid);
  bool is_device(uint32_t gid) const { return range_of(gid).model == nullptr; }

  // Values of all given nodes, gathered from their ranks (NaN for nodes of other ranks in a
  // dry run).
  std::vector<double> get_variable(const std::string& name, const std::vector<uint32_t>& gids);
  // The lists of a list variable (one per node), gathered likewise (empty for nodes of other
  // ranks in a dry run).
  std::vector<std::vector<double>> get_list_variable(const std::string& name, const std::vector<uint32_t>& gids);
  // Sets values[k][i] of names[k] and list_values[k][i] of list_names[k] on those of gids[i]
  // that are local; all or nothing.
  void set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                     const std::vector<std::vector<double>>& values, const std::vector<std::string>& list_names = {},
                     const std::vector<std::vector<std::vector<double>>>& list_values = {});
  // A list parameter (tau_syn) of whole Create calls, on every rank: gids (all of them, ascending)
  // must cover each call they touch, unless the list is that call's already. Checked on every
  // rank before any cell changes; cells whose port count changes get new input columns.
  void set_list(const std::vector<uint32_t>& gids, const std::string& name, const std::vector<double>& values);
  const std::vector<double>& get_list(uint32_t gid, const std::string& name) const;
  // Positions in gids of the neurons that live on this rank.
  std::vector<uint32_t> local_positions(const std::vector<uint32_t>& gids);
  // Values of a distribution for the given nodes, keyed by (seed, call, gid).
  std::vector<double> draw_node_values(const ValueSpec& spec, const std::vector<uint32_t>& gids);

  uint32_t add_synapse_model(const SynapseModel& model);
  // The weight_recorder (a gid; 0: none) that records what the model's synapses transmit.
  void set_weight_recorder(uint32_t synapse, uint32_t recorder);
  SynapseModel& synapse_model(uint32_t id) { return synapse_models_.at(id); }
  uint32_t synapse_model_count() const { return uint32_t(synapse_models_.size()); }
  uint32_t synapse_model_id(const std::string& name) const;
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

  void connect(const ConnectRequest& request);
  // Sources are neurons, or generators that send spikes (recorded `delay` ms after they leave).
  void connect_spike_recorder(uint32_t recorder, const std::vector<uint32_t>& sources, double delay = 1.0);
  void connect_multimeter(uint32_t multimeter, const std::vector<uint32_t>& targets);
  // Connections of all ranks (or of this rank only), in (source, target) order.
  ConnectionList get_connections(const std::vector<uint32_t>* sources, const std::vector<uint32_t>* targets,
                                 int synapse, bool local_only);

  // SynapseCollection.set: one parameter of the listed connections on the ranks that hold
  // them; multapse[i] = k names the k-th connection made with that (source, target, synapse).
  // All or nothing; weights and the models' record parameters only.
  void set_connections(const ConnectionList& which, const std::vector<uint32_t>& multapse, const std::string& parameter,
                       const std::vector<double>& values);
  // Disconnect: removes the listed connections (named as for set_connections) on the ranks that hold them.
  void disconnect(const ConnectionList& which, const std::vector<uint32_t>& multapse);

  void simulate(int64_t steps);
  // Events of a recorder in (time, sender) order (a weight recorder's: then target); values
  // has record_from.size() columns. Rank 0 holds every rank's (gathered at the end of each
  // simulate, a collective step anyway), any other rank its own: reading never communicates.
  const RecordedEvents& events(uint32_t recorder);

  // Settings and measurements of this rank, each with its own type.
  std::map<std::string, StatusValue> status() const;
  const std::vector<double>& cycle_times() const { return cycle_times_; }
  // Spike counts and buffer log of both pathways together.
  ExchangeCounters exchange_counters() const { return pathways_.counters(); }

 private:
  friend class SliceContext;
  friend class ConnectionSink;
  friend class RuleContext;
  struct Local {
    int thread;
    uint32_t group, index;
  };
  const NodeRange& range_of(uint32_t gid) const;
  NodeRange& range_of(uint32_t gid) { return const_cast<NodeRange&>(std::as_const(*this).range_of(gid)); }
  std::vector<NodeRange*> target_ranges(const std::vector<uint32_t>& targets);
  bool sends_current(const ConnectRequest& r) const;  // the request's sources are current generators
  // New input columns (at the end of each thread's) for the groups of a range whose ports changed.
  void relocate_inputs(NodeRange& range);
  void check_node_count(int64_t n) const;  // n new nodes still get 32-bit ids
  void make_groups(NodeRange& range);
  VirtualProcess vp_of(uint32_t gid) const;
  bool is_local(uint32_t gid, int thread) const {
    const VirtualProcess v = vp_of(gid);
    return v.rank == rank_ && v.thread == thread;
  }
  // Where a neuron of this rank lives; false for neurons of other ranks.
  bool locate(uint32_t gid, Local& where, const NodeRange** range = nullptr) const;
  // The input column of a neuron of this rank at NEST's receptor_type, for spikes or currents.
  uint32_t input_of(uint32_t gid, uint32_t receptor, bool current) const;
  template <class Apply>
  void for_each_listed(const ConnectionList& which, const std::vector<uint32_t>& multapse, Apply apply);
  void connect_on_thread(const ConnectionRule& rule, const ConnectRequest& r, int thread, uint32_t call);
  void prepare();
  void prepare_delays();
  void prepare_thread(ThreadState& ts, bool plastic);
  void deliver(ThreadState& ts, std::vector<ConnectionTable>& tables, const Spike* begin, const Spike* end,
               bool long_range);
  void deliver_lumped(ThreadState& ts);
  void stimulate(ThreadState& ts);
  void record_taps(ThreadState& ts, int from, int to);
  void prepare_stimulators();
  void tabulate();
  std::vector<Spike> collocate();
  void end_cycle();
  void start_epoch_exchange();
  // Cycles a long-range spike may wait for its delivery: D, and one more while its exchange
  // travels during the next cycle (overlap_exchange).
  int long_wait() const { return D_ + (config_.overlap_exchange ? 1 : 0); }
  // The master thread's update while an exchange is in flight (overlap_exchange).
  void update_progressing(ThreadState& ts, UpdateContext& ctx, int from, int to);
  void agree_on_failure(std::exception_ptr error);
  void collect_events();

  KernelConfig config_;
  std::shared_ptr<Communicator> comm_;
  int rank_ = 0;
  Placement placement_;
  std::vector<ThreadState> threads_;
  std::vector<NodeRange> ranges_;
  std::vector<Device> devices_;
  std::vector<RecordedEvents> events_;  // by device index, merged over threads and ranks
  std::vector<SynapseModel> synapse_models_;
  std::vector<DecayTable> plus_decay_;        // by synapse model: exp(-steps h / tau_plus)
  double h_;
  uint32_t seed_;
  uint32_t next_gid_ = 1;
  uint32_t connect_calls_ = 0, parameter_draws_ = 0;
  int64_t origin_ = 0;  // first step of the current slice
  int lag_ = 0;         // steps of the current slice already done
  int min_delay_ = 0, max_delay_ = 0;  // steps; min_delay_ is the cycle (intra-area)
  int min_delay_inter_ = 0;            // steps, smallest long-range (inter-area) delay
  int D_ = 1;                          // cycles per global exchange of long-range spikes
  bool long_range_ = false;            // are there connections between areas?
  int short_color_ = 0;                // ranks with the same color share areas
  double area_imbalance_ = 1.0;
  bool prepared_ = false;
  std::exception_ptr cycle_error_;
  uint64_t spikes_before_run_ = 0;  // spikes emitted before the last simulate call (NEST's local_spike_counter)
  std::vector<double> cycle_times_;
  Stopwatch cycle_clock_;  // started by the master thread at each cycle's deliver
  PhaseTimes times_;
  SpikePathways pathways_;  // the exchange part
};

}  // namespace ranvier
