// The network part of a rank's kernel: its share of the network. Node ranges (one per Create
// call) placed on virtual processes (rank, thread), the neuron groups and connection tables
// of each local thread, devices and synapse models; creating, locating and connecting nodes,
// and reading and changing their variables and connections.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/gid_list.hpp"
#include "core/value_spec.hpp"
#include "kernel/config.hpp"
#include "kernel/placement.hpp"
#include "kernel/thread_state.hpp"
#include "models/neuron_model.hpp"
#include "parallel/communicator.hpp"
#include "ranvier/rule_parameters.hpp"

namespace ranvier {
namespace spatial {
class SpatialConnect;
}

struct ConnectionRule;
class RuleCall;

struct NodeRange {
  RangeLayout layout;                    // first gid, count and where the neurons live
  const NeuronModel* model = nullptr;    // null for devices
  std::shared_ptr<const CellKind> kind;  // what the cells are beyond named scalars (cable cells)
  uint32_t first_device = 0;             // devices: index of the first device of the range
  int area = -1;                         // -1: no area
  bool placed = true;                    // area placement places calls together, later
  std::vector<uint32_t> group;           // neurons: index of the group on each local thread
  bool targeted = false;                 // a Connect call targeted these cells: their ports stay
  uint32_t recorded_ports = 0;           // a multimeter records a port's variable up to this port number
  uint32_t first_gid() const { return layout.first_gid; }
  uint32_t count() const { return layout.count; }
  // What area placement balances: cells x their cost per network step of h ms.
  uint64_t work(double h) const { return uint64_t(count()) * model->cost(kind.get(), h); }
};

struct ConnectRequest {
  std::string rule;
  GidList sources, targets;        // ascending gids (one_to_one: pairs in any order)
  RuleParameters rule_parameters;  // the rule's own (its file declares and checks them)
  bool allow_autapses = true, allow_multapses = true;
  ValueSpec weight, delay;  // delay in ms
  uint32_t synapse = 0;
  std::shared_ptr<const spatial::SpatialConnect> spatial;  // set for spatial rules (masks, spatial p)
  uint32_t receptor = 0;                                   // input port of the targets (receptor_type)
  std::map<std::string, double> parameters;                // per-connection parameters of the model's record
  // A receptor_type per connection drawn as weights are (uniform_int; `receptor` is its least), or
  // Kind::constant: every connection takes `receptor`.
  ValueSpec receptor_draw;
};

// The smallest and largest delay (steps) of a set of connections; min > max: none.
struct DelayExtrema {
  int64_t min = INT64_MAX, max = 0;
  void add(int64_t steps) { min = std::min(min, steps), max = std::max(max, steps); }
  void add(const DelayExtrema& o) { min = std::min(min, o.min), max = std::max(max, o.max); }
  bool empty() const { return min > max; }
};

struct ConnectionList {
  std::vector<uint32_t> source, target, synapse;
  std::vector<uint32_t> receptor, target_thread;  // the target's receptor_type, and its thread
  // NEST's port: the connection's position among its thread's connections of its synapse model
  // (its source's among those of a device's or to devices)
  std::vector<uint32_t> port;
  std::vector<double> weight, delay;
  // The record parameters of each connection's model in order (synapses/synapse_model.hpp),
  // record_width per connection, NaN beyond its model's.
  size_t record_width = 0;
  std::vector<double> record;
};

class LocalNetwork {
 public:
  // config and times are the kernel's: the seed is read where draws are made.
  LocalNetwork(const KernelConfig& config, std::shared_ptr<Communicator> comm, PhaseTimes& times);

  const KernelConfig& config() const { return config_; }
  double resolution() const { return h_; }
  // What connection rules and their sink read (connect/): the Create call of a node, where a
  // neuron lives and its input column at NEST's receptor_type, for spikes or currents.
  const NodeRange& range_of(uint32_t gid) const;
  bool is_local(uint32_t gid, int thread) const;  // replicated nodes (NeuronModel::replicated) on every thread
  // thread: where a replicated node's instance is meant.
  uint32_t input_of(uint32_t gid, uint32_t receptor, bool current, int thread = 0) const;
  bool sends_current(const ConnectRequest& r) const;  // the request's sources are current generators

  // Grows with every change the simulation must prepare for (nodes, connections, parameters).
  uint64_t revision() const { return revision_; }
  std::vector<ThreadState>& threads() { return threads_; }
  const std::vector<ThreadState>& threads() const { return threads_; }
  const std::vector<Device>& devices() const { return devices_; }
  std::vector<Device>& devices() { return devices_; }
  const std::vector<SynapseModel>& synapse_models() const { return synapse_models_; }
  uint32_t node_count() const { return next_gid_ - 1; }
  int ranks() const { return placement_.ranks(); }  // pretended ranks in a dry run
  // Area placement: short-range spikes stay among the ranks of one color, which share areas.
  bool area_placement() const { return placement_.policy() == PlacementPolicy::area; }
  // Some cells spike off the grid (cable cells): spikes travel with their offsets.
  bool off_grid_spikes() const {
    for (const NodeRange& r : ranges_)
      if (r.model && r.model->precise_spike_times()) return true;
    return false;
  }
  int area_color() const { return area_color_; }
  double area_imbalance() const { return area_imbalance_; }

  uint32_t create_neurons(const std::string& model, int64_t n, int area = -1,
                          std::shared_ptr<const CellKind> kind = nullptr);
  // Area placement: places the Create calls made since the last placement, all areas known.
  void place_areas();
  uint32_t create_devices(const std::string& model, int64_t n);
  // Removes the nodes of the last Create call (when their parameters were rejected).
  void undo_last_create();
  Device& device_of(uint32_t gid);
  bool is_device(uint32_t gid) const { return range_of(gid).model == nullptr; }
  // The rank and thread of a neuron.
  VirtualProcess vp_of(uint32_t gid) const;
  // NEST's node properties vp (thread x ranks + rank) and thread of each node; a device has an
  // instance on every virtual process and answers as NEST does, 0 and 0.
  std::vector<VirtualProcess> virtual_processes(const std::vector<uint32_t>& gids);

  // Values of all given nodes, gathered from their ranks where every rank asks about the same
  // nodes (else each answers for its own, NaN for the others; so in a dry run). Neurons that keep spikes for plasticity
  // (NEST's archiving nodes) also answer last_spike_name, the time of their last spike in ms (-1 before the first).
  static constexpr const char* last_spike_name = "t_spike";
  // Every neuron answers frozen_name, 1 where NEST's frozen property is set (kernel/frozen_nodes.hpp).
  static constexpr const char* frozen_name = "frozen";
  std::vector<double> get_variable(const std::string& name, const std::vector<uint32_t>& gids);
  // NEST's frozen property of the local ones of gids: frozen neurons are not updated.
  void set_frozen(const std::vector<uint32_t>& gids, bool frozen);
  bool same_on_all_ranks(const std::vector<uint32_t>& gids);
  // The lists of a list variable (one per node), gathered likewise (empty for nodes of other
  // ranks in a dry run).
  std::vector<std::vector<double>> get_list_variable(const std::string& name, const std::vector<uint32_t>& gids);
  // Sets values[k][i] of names[k] and list_values[k][i] of list_names[k] on those of gids[i]
  // that are local, at the given step; all or nothing.
  void set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                     const std::vector<std::vector<double>>& values, const std::vector<std::string>& list_names,
                     const std::vector<std::vector<std::vector<double>>>& list_values, int64_t step);
  // Changes the kind of whole Create calls (models/neuron_model.hpp), on every rank: `next` gives a
  // call's new kind (null to leave it) and whether its cells' port count changes, and may throw.
  // gids (all of them, ascending) must cover each call that changes; `what` names the change in
  // errors. Checked on every rank before any cell changes; cells whose port count changes get new
  // input columns, unless a Connect call targeted them.
  struct NewKind {
    std::shared_ptr<const CellKind> kind;
    bool ports_change = false;
  };
  using KindChange = std::function<NewKind(const NodeRange&)>;
  void set_kind(const std::vector<uint32_t>& gids, const std::string& what, const KindChange& next);
  // List parameters (tau_syn) of whole Create calls, together (a model may need them to agree).
  void set_lists(const std::vector<uint32_t>& gids, const std::map<std::string, std::vector<double>>& values);
  const std::vector<double>& get_list(uint32_t gid, const std::string& name) const;
  // NEST's synaptic elements of archiving neurons (models/synaptic_elements.hpp, kernel/node_elements.cpp):
  // a local neuron's element of that name, or null.
  SynapticElement* synaptic_element(uint32_t gid, const std::string& name);
  // Values of elements by name, each by NEST's keys (SynapticElement::set).
  using ElementValues = std::map<std::string, std::map<std::string, double>>;
  // Sets the elements of the local ones of gids, all or nothing: replaces a neuron's elements
  // (NEST's synaptic_elements), or changes those named that it has (synaptic_elements_param).
  void set_synaptic_elements(const std::vector<uint32_t>& gids, const ElementValues& values, bool replace);
  // Each node's elements (SynapticElement::get), gathered as get_variable gathers.
  std::vector<ElementValues> get_synaptic_elements(const std::vector<uint32_t>& gids);
  // n[k] synapses more (fewer where negative) on the element `name` of gids[k], where local
  // and the neuron has it (Connect and Disconnect with synaptic elements).
  void connect_synaptic_elements(const std::vector<uint32_t>& gids, const std::vector<int64_t>& n,
                                 const std::string& name);
  // Positions in gids of the neurons that live on this rank.
  std::vector<uint32_t> local_positions(const GidList& gids);
  // Values of a distribution for the given nodes, keyed by (seed, call, gid).
  std::vector<double> draw_node_values(const ValueSpec& spec, const std::vector<uint32_t>& gids);
  // Values of a random spec for existing connections (SynapseCollection.set), keyed by each
  // connection (source, target, synapse model, multapse index): the same for any partition.
  std::vector<double> draw_connection_values(const ValueSpec& spec, const ConnectionList& which,
                                             const std::vector<uint32_t>& multapse);

  uint32_t add_synapse_model(const SynapseModel& model);
  // The weight_recorder (a gid; 0: none) that records what the model's synapses transmit.
  void set_weight_recorder(uint32_t synapse, uint32_t recorder);
  SynapseModel& synapse_model(uint32_t id) { return synapse_models_.at(id); }
  uint32_t synapse_model_count() const { return uint32_t(synapse_models_.size()); }
  uint32_t synapse_model_id(const std::string& name) const;

  void connect(const ConnectRequest& request);
  // Collocated synapses (NEST's CollocatedSynapses): one Connect per synapse spec over the same
  // pairs. Spec 0's calls draw their partners and are remembered; spec k > 0's calls draw the
  // partners of spec 0's calls in order, and their weights and delays from streams of their
  // own. -1 ends the group.
  void collocate(int spec);
  // The synapse spec of the collocated group being connected (0 outside one): its weights and
  // delays come from streams of its own.
  uint32_t collocated_spec() const { return uint32_t(std::max(collocation_.spec, 0)); }
  // A recorder to nodes, as what it records says: the spikes of sources (neurons, or
  // generators that send spikes, recorded `delay` ms after they leave) or samples of targets;
  // events: what the recorders hold already (by device); port and weight: the connections'
  // receptor_type and weight (a recorder of spikes checks the port).
  void connect_recorder(uint32_t recorder, const std::vector<uint32_t>& nodes, double delay,
                        const std::vector<RecordedEvents>& events, uint32_t port = 0, double weight = 1.0);
  // The sorted connection tables (the kernel prepares first) read and changed:
  // connections of all ranks (or of this rank only), recorders' included, in (source, target) order.
  // Sorts every thread's connection tables (where connections were added since), thread by thread.
  void finalize_tables();
  ConnectionList get_connections(const std::vector<uint32_t>* sources, const std::vector<uint32_t>* targets,
                                 int synapse, bool local_only);
  // SynapseCollection.set: one parameter of the listed connections on the ranks that hold
  // them; multapse[i] = k names the k-th connection made with that (source, target, synapse).
  // All or nothing; weights, delays and the models' record parameters (recorders' connections raise).
  void set_connections(const ConnectionList& which, const std::vector<uint32_t>& multapse, const std::string& parameter,
                       const std::vector<double>& values);
  // NEST's min_delay and max_delay in steps: the extrema of every delay, devices' and
  // recorders' connections included; this rank's until the kernel prepares (agreed by all
  // ranks from then on, set_delay_extrema).
  const DelayExtrema& delay_extrema() const { return delay_extrema_; }
  void set_delay_extrema(const DelayExtrema& all) { delay_extrema_ = all; }

  // How many Connect calls and parameter draws were made: their numbers key the streams of
  // the next ones (a checkpoint keeps them).
  std::pair<uint32_t, uint32_t> draw_calls() const { return {connect_calls_, parameter_draws_}; }
  void set_draw_calls(uint32_t connect, uint32_t parameters) {
    connect_calls_ = connect, parameter_draws_ = parameters;
  }

  // Disconnect: removes the listed connections (named as for set_connections) on the ranks that hold them.
  void disconnect(const ConnectionList& which, const std::vector<uint32_t>& multapse);

 private:
  struct Local {
    int thread;
    uint32_t group, index;
  };
  NodeRange& range_of(uint32_t gid) { return const_cast<NodeRange&>(std::as_const(*this).range_of(gid)); }
  std::vector<NodeRange*> target_ranges(const GidList& targets);
  std::vector<Device*> source_stimulators(const ConnectRequest& r);
  // New input columns (at the end of each thread's) for the groups of a range whose ports changed.
  void relocate_inputs(NodeRange& range);
  void check_node_count(int64_t n) const;  // n new nodes still get 32-bit ids
  void make_groups(NodeRange& range);
  // Where a neuron of this rank lives (a replicated node: its instance on `thread`); false for
  // neurons of other ranks.
  bool locate(uint32_t gid, Local& where, const NodeRange** range = nullptr, int thread = 0) const;
  VirtualProcess vp_in(uint32_t gid, const NodeRange& r) const;
  // Replicated nodes (volume transmitters) neither send spikes nor are recorded: throws naming `what`.
  void refuse_replicated(const NodeRange& range, const char* what) const;
  void refuse_non_eprop(const ConnectRequest& r, const std::vector<NodeRange*>& targeted) const;
  void refuse_mixed_events(const ConnectRequest& r, const std::vector<uint32_t>& receptors,
                           const std::vector<NodeRange*>& senders, const std::vector<NodeRange*>& targeted,
                           const std::vector<Device*>& stimulators);
  static std::vector<uint32_t> all_gids(const RangeLayout& layout);
  template <class Apply>
  void for_each_listed(const ConnectionList& which, const std::vector<uint32_t>& multapse, Apply apply);
  template <class Apply>
  void for_each_listed_stimulus(const ConnectionList& which, const std::vector<uint32_t>& multapse, Apply apply);
  DelayExtrema connect_on_thread(const ConnectionRule& rule, const RuleCall& rule_call, int thread, uint32_t call);
  void connect_spike_sources(Device& recorder, const std::vector<uint32_t>& sources, uint32_t delay,
                             const std::vector<RecordedEvents>& events, uint32_t port, double weight);
  void connect_sampled(const Device& recorder, const std::vector<uint32_t>& targets, uint32_t delay);
  void changed() { ++revision_; }
  void refuse_recorders(const ConnectionList& which, const char* what) const;
  void set_delays(const ConnectionList& which, const std::vector<uint32_t>& multapse,
                  const std::vector<double>& values);

  const KernelConfig& config_;
  std::shared_ptr<Communicator> comm_;
  PhaseTimes& times_;
  int rank_ = 0;
  double h_;
  Placement placement_;
  std::vector<ThreadState> threads_;
  std::vector<NodeRange> ranges_;
  std::vector<Device> devices_;
  std::vector<SynapseModel> synapse_models_;
  uint32_t next_gid_ = 1;
  uint32_t connect_calls_ = 0, parameter_draws_ = 0;
  bool replicated_nodes_ = false;  // some Create call made replicated nodes
  struct Collocation {
    int spec = -1;
    std::vector<uint32_t> calls;  // spec 0's
    size_t next = 0;              // the next of them a later spec's call replays
  } collocation_;
  int area_color_ = 0;  // ranks with the same color share areas
  double area_imbalance_ = 1.0;
  uint64_t revision_ = 0;
  DelayExtrema delay_extrema_;
};

}  // namespace ranvier
