// A table's delays in steps, per source or per connection as a RunColumn keeps them, in one
// byte each where every delay of the table fits (below 256 steps: 25.5 ms at 0.1 ms), else in
// two. Delivery gets the run through with_run() in either width; the values are the same.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "synapses/run_column.hpp"

namespace ranvier {

class DelayColumn {
 public:
  uint16_t at(size_t source_index, size_t k) const {
    return narrow_ ? bytes_.at(source_index, k) : steps_.at(source_index, k);
  }
  // f(pointer to the run's delays, stride), the pointer to uint8_t or to uint16_t.
  template <class F>
  void with_run(size_t source_index, size_t begin, F&& f) const {
    if (narrow_)
      f(bytes_.run(source_index, begin), bytes_.stride());
    else
      f(steps_.run(source_index, begin), steps_.stride());
  }
  bool narrow() const { return narrow_; }
  size_t stride() const { return narrow_ ? bytes_.stride() : steps_.stride(); }  // 0: one delay per source or table
  size_t stored() const {
    return narrow_ ? bytes_.values().size() : steps_.values().size();
  }  // for the table, per source or per connection

  void assign_per_source(std::vector<uint16_t> values) { assign(std::move(values), true); }
  void assign_per_connection(std::vector<uint16_t> values) { assign(std::move(values), false); }
  void expand(const RunOffsets& offsets) { narrow_ ? bytes_.expand(offsets) : steps_.expand(offsets); }
  void keep(const std::vector<uint8_t>& runs, const std::vector<uint8_t>& connections) {
    narrow_ ? bytes_.keep(runs, connections) : steps_.keep(runs, connections);
  }
  uint16_t max() const { return narrow_ ? extreme<true>(bytes_.values()) : extreme<true>(steps_.values()); }
  uint16_t min() const { return narrow_ ? extreme<false>(bytes_.values()) : extreme<false>(steps_.values()); }
  size_t bytes() const { return bytes_.bytes() + steps_.bytes(); }

 private:
  void assign(std::vector<uint16_t> values, bool per_source) {
    narrow_ = std::all_of(values.begin(), values.end(), [](uint16_t d) { return d <= UINT8_MAX; });
    if (narrow_) {
      std::vector<uint8_t> small(values.begin(), values.end());
      std::vector<uint16_t>().swap(values);
      per_source ? bytes_.assign_per_source(std::move(small)) : bytes_.assign_per_connection(std::move(small));
      steps_.assign_per_source({});
    } else {
      per_source ? steps_.assign_per_source(std::move(values)) : steps_.assign_per_connection(std::move(values));
      bytes_.assign_per_source({});
    }
  }
  template <bool Max, class T>
  static uint16_t extreme(const std::vector<T>& v) {
    if (v.empty()) return 0;
    return Max ? *std::max_element(v.begin(), v.end()) : *std::min_element(v.begin(), v.end());
  }

  RunColumn<uint8_t> bytes_;
  RunColumn<uint16_t> steps_;
  bool narrow_ = false;
};

}  // namespace ranvier
