// The connections of one synapse model on one thread, sorted by source once before the
// simulation: per source a contiguous run of targets, with weights, delays and plastic state
// in columns stored per connection or, where a whole run shares them, per source; delivery
// walks memory sequentially. A model's per-connection record (synapses/record_column.hpp)
// is kept the same way.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "synapses/delay_column.hpp"
#include "synapses/record_column.hpp"
#include "synapses/run_column.hpp"
#include "synapses/run_offsets.hpp"
#include "synapses/staging.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {

struct SourceRange {
  size_t begin = 0, end = 0;
};

class ConnectionTable {
 public:
  // own_records: each connection's record evolves by itself (random release), so runs never share one.
  ConnectionTable(bool plastic, size_t record_width, bool own_records = false)
      : plastic_(plastic), own_records_(own_records) {
    records_.set_width(record_width);
  }

  bool plastic() const { return plastic_; }  // weights change, so they are kept per connection
  ConnectionStaging& staging() { return staging_; }
  // The record new connections of a Connect call start from; its index goes with them.
  uint32_t add_initial_record(const std::vector<double>& record) {
    initial_records_.insert(initial_records_.end(), record.begin(), record.end());
    return uint32_t(initial_records_.size() / std::max<size_t>(1, records_.width()) - 1);
  }
  // Sorts staged connections into the table (after the existing ones of each source).
  void finalize();
  // Removes the sorted connections at these ascending positions (Disconnect); nothing staged.
  void erase(const std::vector<size_t>& positions);

  size_t size() const { return target_.size(); }             // sorted connections
  size_t count() const { return size() + staging_.size(); }  // sorted and still staged
  size_t bytes() const;
  // Index in sources() of the first source >= gid, starting the search at `hint`.
  size_t seek(uint32_t gid, size_t hint) const {
    return size_t(std::lower_bound(sources_.begin() + long(hint), sources_.end(), gid) - sources_.begin());
  }
  const std::vector<uint32_t>& sources() const { return sources_; }
  SourceRange range_at(size_t source_index) const { return {offsets_[source_index], offsets_[source_index + 1]}; }

  const uint32_t* targets() const { return target_.data(); }
  RunColumn<double>& weights() { return weight_; }
  const RunColumn<double>& weights() const { return weight_; }
  const DelayColumn& delays() const { return delay_; }
  RecordColumn& records() { return records_; }
  const RecordColumn& records() const { return records_; }
  // Weights or records per connection, so that single connections can change (SynapseCollection.set).
  void expand_weights() { weight_.expand(offsets_); }
  void expand_records() { records_.expand(offsets_); }
  // New delays (steps) of sorted connections, by position (SynapseCollection.set): the table
  // keeps one delay per connection from then on.
  void set_delays(const std::vector<std::pair<size_t, uint16_t>>& changes);
  // A count the model keeps per thread, as NEST's models keep common state per thread
  // (stdp_facetshw_synapse_hom numbers its synapses in the order they first transmit); -1 once
  // the table's connections change, when the model counts again from its records.
  int64_t& model_count() { return model_count_; }
  uint16_t max_delay() const { return delay_.max(); }
  uint16_t min_delay() const { return delay_.min(); }

 private:
  bool plastic_;
  bool own_records_;
  ConnectionStaging staging_;
  std::vector<uint32_t> sources_;  // distinct sources, ascending
  RunOffsets offsets_;             // sources_.size() + 1 run boundaries
  std::vector<uint32_t> target_;   // local index of the target on this thread
  RunColumn<double> weight_;
  DelayColumn delay_;
  RecordColumn records_;
  std::vector<double> initial_records_;  // of the staged connections' Connect calls
  int64_t model_count_ = -1;
};

}  // namespace ranvier
