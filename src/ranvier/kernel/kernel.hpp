// The simulation kernel of one process: nodes placed round-robin on threads, connections
// stored on the thread of their target, and the deliver / update / collocate cycle.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/timers.hpp"
#include "core/value_spec.hpp"
#include "kernel/thread_state.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {

struct NodeRange {
  uint32_t first_gid = 0, count = 0;
  const NeuronModel* model = nullptr;  // null for devices
  uint32_t first_device = 0;           // devices: index of the first device of the range
  std::vector<uint32_t> group;         // neurons: index of the group on each thread
};

struct ConnectRequest {
  std::string rule;
  std::vector<uint32_t> sources, targets;  // ascending gids (one_to_one: pairwise)
  int64_t degree = 0;                      // indegree, outdegree or N
  double p = 0.0;
  bool allow_autapses = true, allow_multapses = true;
  ValueSpec weight, delay;  // delay in ms
  uint32_t synapse = 0;
};

struct ConnectionList {
  std::vector<uint32_t> source, target, synapse;
  std::vector<double> weight, delay;
};

struct PhaseTimes {
  Stopwatch create, connect, prepare, simulate, deliver, update, collocate;
};

class Kernel {
 public:
  explicit Kernel(int threads = 1, double resolution = 0.1, uint32_t seed = 12345);
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  int threads() const { return int(threads_.size()); }
  double resolution() const { return h_; }
  uint32_t seed() const { return seed_; }
  uint32_t node_count() const { return next_gid_ - 1; }
  int64_t step() const { return origin_ + lag_; }

  uint32_t create_neurons(const std::string& model, uint32_t n);
  uint32_t create_devices(DeviceType type, uint32_t n);
  // Removes the nodes of the last Create call (when their parameters were rejected).
  void undo_last_create();
  Device& device_of(uint32_t gid);

  std::vector<double> get_variable(const std::string& name, const std::vector<uint32_t>& gids) const;
  // Sets values[k][i] of names[k] on gids[i]; all or nothing.
  void set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                     const std::vector<std::vector<double>>& values);
  // Values of a distribution for the given nodes, keyed by (seed, call, gid).
  std::vector<double> draw_node_values(const ValueSpec& spec, const std::vector<uint32_t>& gids);

  uint32_t add_synapse_model(const SynapseModel& model);
  SynapseModel& synapse_model(uint32_t id) { return synapse_models_.at(id); }

  void connect(const ConnectRequest& request);
  void connect_spike_recorder(uint32_t recorder, const std::vector<uint32_t>& sources);
  void connect_multimeter(uint32_t multimeter, const std::vector<uint32_t>& targets);
  ConnectionList get_connections(const std::vector<uint32_t>* sources,
                                 const std::vector<uint32_t>* targets, int synapse);

  void simulate(int64_t steps);
  // Events of a recorder in (time, sender) order; values has record_from.size() columns.
  RecordedEvents events(uint32_t recorder) const;
  void clear_events(uint32_t recorder);

  std::map<std::string, double> status() const;

 private:
  friend class SliceContext;
  friend class ConnectionSink;
  struct Placement {
    int thread;
    uint32_t group, index;
  };
  const NodeRange& range_of(uint32_t gid) const;
  Placement place(uint32_t gid) const;  // neurons only
  uint32_t lid_of(uint32_t gid) const {
    const Placement p = place(gid);
    return threads_[size_t(p.thread)].groups[p.group].first_lid + p.index;
  }
  void connect_on_thread(const ConnectRequest& r, int thread, uint32_t call);
  void prepare();
  void deliver(ThreadState& ts);
  void deliver_stimuli(ThreadState& ts);
  void collocate();

  std::vector<ThreadState> threads_;
  std::vector<NodeRange> ranges_;
  std::vector<Device> devices_;
  std::vector<SynapseModel> synapse_models_;
  double h_;
  uint32_t seed_;
  uint32_t next_gid_ = 1;
  uint32_t connect_calls_ = 0, parameter_draws_ = 0;
  int64_t origin_ = 0;  // first step of the current slice
  int lag_ = 0;         // steps of the current slice already done
  int min_delay_ = 0, max_delay_ = 0;  // steps
  bool prepared_ = false;
  std::vector<Spike> spike_buffer_;  // spikes of the last slice, sorted, to be delivered
  uint64_t synapse_count_ = 0;
  PhaseTimes times_;
};

DeviceType device_type_from_name(const std::string& name, bool* found);

}  // namespace ranvier
