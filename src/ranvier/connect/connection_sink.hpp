// Where connection rules put what they make: draws each connection's weight and delay,
// checks them and appends the connection to the staging of the target's thread.
#pragma once
#include <cstdint>

#include "connect/drawn_values.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

class ConnectionSink {
 public:
  // ts: the state of thread `thread`, where it stores.
  ConnectionSink(const LocalNetwork& k, int thread, ThreadState& ts, const ConnectRequest& r, uint32_t call);

  // owner/index key the random weight, delay and receptor; array_index addresses array specs.
  // input: the target's input column at the request's receptor (a drawn receptor replaces it).
  void add(uint32_t source, uint32_t target, uint32_t input, uint32_t owner, uint64_t index, uint64_t array_index);
  // A connection whose weight and delay (ms) the rule computed itself (spatial parameters).
  void add_value(uint32_t source, uint32_t target, uint32_t input, double weight, double delay);
  // A delay in ms as steps of h, checked.
  static uint32_t steps_of(double delay, double h);
  // The same, also against the delay extrema the user set (NEST's BadDelay).
  static uint32_t checked_steps(double delay, const KernelConfig& c, double h);
  // The delays (steps) of what it stored, as NEST's delay extrema count them.
  DelayExtrema delays() const {
    DelayExtrema all = stored_;
    if (constant_used_) all.add(constant_delay_);
    if (constant_used_ && model_.base->delay_offset_slot >= 0 &&
        record_values_[size_t(model_.base->delay_offset_slot)] > 0.0)
      all.add(constant_delay_ + 1);  // such a spike may arrive a step later (NEST counts both)
    return all;
  }

 private:
  void store(uint32_t source, uint32_t target, uint32_t input, double w, uint32_t steps);
  uint32_t delay_steps(double d) const;
  // The Create call of a gid; consecutive connections mostly share it.
  const NodeRange& range(uint32_t gid, const NodeRange*& cached);

  const LocalNetwork& k_;
  const int thread_;
  ThreadState& ts_;
  const ConnectRequest& r_;
  uint32_t call_;
  const SynapseModel& model_;
  std::vector<double> record_values_;      // the call's initial record
  uint32_t record_ = 0, record_long_ = 0;  // its index in this thread's tables
  uint32_t constant_delay_ = 0;
  uint32_t min_steps_ = 0, max_steps_ = UINT32_MAX;  // the user's delay extrema, if set
  DrawnValues weights_, delays_, receptors_;
  const bool drawn_receptor_, current_;  // a receptor_type per connection; the sources send currents
  DelayExtrema stored_;                  // of the delays drawn or given per connection
  bool constant_used_ = false;           // a connection took the call's constant delay
  const NodeRange* source_ = nullptr;
  const NodeRange* target_ = nullptr;
};

}  // namespace ranvier
