// One per-connection quantity of a source-sorted table (weight, delay, plastic state),
// stored once per source when every source's connections share their value, else once per
// connection. Constant weights and delays, and the plastic state of synapses created
// together, are shared by a whole run, so most tables keep only their targets per connection.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ranvier {

template <class T>
class RunColumn {
 public:
  // Value of connection k, which belongs to `source_index`'s run.
  T at(size_t source_index, size_t k) const { return values_[per_source_ ? source_index : k]; }
  // The values of one run as a pointer and a stride (0 when the run shares one value).
  T* run(size_t source_index, size_t begin) { return values_.data() + (per_source_ ? source_index : begin); }
  const T* run(size_t source_index, size_t begin) const {
    return values_.data() + (per_source_ ? source_index : begin);
  }
  size_t stride() const { return per_source_ ? 0 : 1; }

  void assign_per_source(std::vector<T> per_source) {
    per_source_ = true;
    values_ = std::move(per_source);
  }
  void assign_per_connection(std::vector<T> per_connection) {
    per_source_ = false;
    values_ = std::move(per_connection);
  }
  // Per connection from now on (one connection's value is about to change); offsets bound the runs.
  void expand(const std::vector<size_t>& offsets) {
    if (!per_source_) return;
    std::vector<T> each(offsets.back());
    for (size_t run = 0; run + 1 < offsets.size(); ++run)
      std::fill(each.begin() + long(offsets[run]), each.begin() + long(offsets[run + 1]), values_[run]);
    assign_per_connection(std::move(each));
  }
  // Keeps the values of the runs and connections marked 1 (the others were disconnected).
  void keep(const std::vector<uint8_t>& runs, const std::vector<uint8_t>& connections) {
    const std::vector<uint8_t>& kept = per_source_ ? runs : connections;
    size_t out = 0;
    for (size_t i = 0; i < kept.size(); ++i)
      if (kept[i]) values_[out++] = values_[i];
    values_.resize(out);
  }
  const std::vector<T>& values() const { return values_; }  // per source or per connection
  size_t bytes() const { return values_.capacity() * sizeof(T); }

 private:
  std::vector<T> values_;
  bool per_source_ = false;
};

}  // namespace ranvier
