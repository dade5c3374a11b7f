// The per-connection record of a synapse model (its parameters other than weight and delay,
// then its hidden state: the pre trace of STDP, the resources of short-term plasticity), in a
// source-sorted table: `width` doubles per source when all of a source's connections share
// them, else per connection. Short-term plasticity and the pre trace of STDP depend on the
// presynaptic spikes only, so connections made together share their record for good.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "synapses/run_offsets.hpp"

namespace ranvier {

class RecordColumn {
 public:
  size_t width() const { return width_; }
  void set_width(size_t w) { width_ = w; }
  const double* at(size_t source_index, size_t k) const {
    return values_.data() + (per_source_ ? source_index : k) * width_;
  }
  // The records of one run as a pointer and a stride in doubles (0 when the run shares one).
  double* run(size_t source_index, size_t begin) {
    return values_.data() + (per_source_ ? source_index : begin) * width_;
  }
  const double* run(size_t source_index, size_t begin) const {
    return values_.data() + (per_source_ ? source_index : begin) * width_;
  }
  size_t stride() const { return per_source_ ? 0 : width_; }

  void assign(std::vector<double> values, bool per_source) {
    values_ = std::move(values);
    per_source_ = per_source;
  }
  // Per connection from now on (one connection's record is about to change); offsets bound the runs.
  void expand(const RunOffsets& offsets) {
    if (!per_source_) return;
    std::vector<double> each(offsets.back() * width_);
    for (size_t run = 0; run + 1 < offsets.size(); ++run)
      for (size_t k = offsets[run]; k < offsets[run + 1]; ++k)
        std::copy_n(values_.begin() + long(run * width_), width_, each.begin() + long(k * width_));
    assign(std::move(each), false);
  }
  // Keeps the records of the runs and connections marked 1 (the others were disconnected).
  void keep(const std::vector<uint8_t>& runs, const std::vector<uint8_t>& connections) {
    const std::vector<uint8_t>& kept = per_source_ ? runs : connections;
    size_t out = 0;
    for (size_t i = 0; i < kept.size() && width_ > 0; ++i)
      if (kept[i]) std::copy_n(values_.begin() + long(i * width_), width_, values_.begin() + long(out++ * width_));
    values_.resize(out * width_);
  }
  size_t bytes() const { return values_.capacity() * sizeof(double); }

 private:
  std::vector<double> values_;
  size_t width_ = 0;
  bool per_source_ = false;
};

}  // namespace ranvier
