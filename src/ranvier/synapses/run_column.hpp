// One per-connection quantity of a source-sorted table (weight, delay, plastic state),
// stored once per source when every source's connections share their value, else once per
// connection. Constant weights and delays, and the plastic state of synapses created
// together, are shared by a whole run, so most tables keep only their targets per connection.
#pragma once
#include <cstdint>
#include <vector>

namespace ranvier {

template <class T>
class RunColumn {
 public:
  bool per_source() const { return per_source_; }
  // Value of connection k, the n-th of `source_index`'s run.
  T at(size_t source_index, size_t k) const { return values_[per_source_ ? source_index : k]; }
  // The values of one run as a pointer and a stride (0 when the run shares one value).
  T* run(size_t source_index, size_t begin) { return values_.data() + (per_source_ ? source_index : begin); }
  const T* run(size_t source_index, size_t begin) const {
    return values_.data() + (per_source_ ? source_index : begin);
  }
  size_t stride() const { return per_source_ ? 0 : 1; }

  // Takes one value per connection (runs delimited by `offsets`) and keeps one per source
  // when every run is uniform.
  void assign(std::vector<T> per_connection, const std::vector<size_t>& offsets) {
    per_source_ = offsets.size() > 1 && !per_connection.empty();
    for (size_t i = 0; per_source_ && i + 1 < offsets.size(); ++i)
      for (size_t k = offsets[i] + 1; k < offsets[i + 1]; ++k)
        if (!(per_connection[k] == per_connection[offsets[i]])) {
          per_source_ = false;
          break;
        }
    if (!per_source_) {
      values_ = std::move(per_connection);
      return;
    }
    values_.resize(offsets.size() - 1);
    for (size_t i = 0; i + 1 < offsets.size(); ++i) values_[i] = per_connection[offsets[i]];
    values_.shrink_to_fit();
  }
  // Always one value per connection (plastic weights drift apart).
  void assign_per_connection(std::vector<T> per_connection) {
    per_source_ = false;
    values_ = std::move(per_connection);
  }
  const std::vector<T>& values() const { return values_; }
  size_t bytes() const { return values_.capacity() * sizeof(T); }

 private:
  std::vector<T> values_;
  bool per_source_ = false;
};

}  // namespace ranvier
