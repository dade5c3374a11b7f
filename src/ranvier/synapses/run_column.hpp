// One per-connection quantity of a source-sorted table (weight, delay), stored by what its
// connections share: one value for the whole table; one per source, as a one-byte code into
// at most 256 distinct values where that is smaller (a table of excitatory and inhibitory
// sources holds two weights); one per source; else one per connection. Constant weights and
// delays are shared by a whole run, so most tables keep only their targets per connection;
// the codes matter where runs are about one connection long (one rank of many).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "synapses/run_offsets.hpp"

namespace ranvier {

template <class T>
class RunColumn {
 public:
  // Value of connection k, which belongs to `source_index`'s run.
  T at(size_t source_index, size_t k) const { return values_[index(source_index, k)]; }
  // The values of one run as a pointer and a stride (0 when the run shares one value).
  T* run(size_t source_index, size_t begin) { return values_.data() + index(source_index, begin); }
  const T* run(size_t source_index, size_t begin) const { return values_.data() + index(source_index, begin); }
  size_t stride() const { return per_connection_; }

  // One value per source, kept as compactly as they allow (values compared bit for bit).
  void assign_per_source(std::vector<T> per_source) {
    per_source_ = 1, per_connection_ = 0;
    std::vector<uint8_t>().swap(codes_);
    std::vector<T> distinct;
    std::vector<uint8_t> codes = encode(per_source, distinct);
    if (distinct.size() == 1)
      per_source_ = 0, per_source = std::move(distinct);  // one value for the table
    else if (!codes.empty() && sizeof(T) > 1)
      codes_ = std::move(codes), per_source = std::move(distinct);
    per_source.shrink_to_fit();
    values_ = std::move(per_source);
  }
  void assign_per_connection(std::vector<T> per_connection) {
    values_ = std::move(per_connection);
    std::vector<uint8_t>().swap(codes_);
    per_source_ = 0, per_connection_ = 1;
  }
  // Per connection from now on (one connection's value is about to change); offsets bound the runs.
  void expand(const RunOffsets& offsets) {
    if (per_connection_) return;
    std::vector<T> each(offsets.back());
    for (size_t run = 0; run + 1 < offsets.size(); ++run)
      std::fill(each.begin() + long(offsets[run]), each.begin() + long(offsets[run + 1]), at(run, 0));
    assign_per_connection(std::move(each));
  }
  // Keeps the values of the runs and connections marked 1 (the others were disconnected).
  void keep(const std::vector<uint8_t>& runs, const std::vector<uint8_t>& connections) {
    if (!codes_.empty()) return keep_marked(codes_, runs);
    if (per_source_) return keep_marked(values_, runs);
    if (per_connection_) keep_marked(values_, connections);  // else one value for the table
  }
  const std::vector<T>& values() const { return values_; }  // distinct, per source or per connection
  size_t bytes() const { return values_.capacity() * sizeof(T) + codes_.capacity(); }

 private:
  size_t index(size_t source_index, size_t k) const {
    return codes_.empty() ? source_index * per_source_ + k * per_connection_ : codes_[source_index];
  }
  // The values' codes into `distinct`; none when there are more than 256 distinct values.
  static std::vector<uint8_t> encode(const std::vector<T>& values, std::vector<T>& distinct) {
    static_assert(sizeof(T) <= sizeof(uint64_t));
    std::unordered_map<uint64_t, uint8_t> code_of;
    std::vector<uint8_t> codes(values.size());
    uint64_t last = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, &values[i], sizeof(T));
      if (i > 0 && bits == last) {  // neighbouring sources mostly share their value
        codes[i] = codes[i - 1];
        continue;
      }
      last = bits;
      auto [it, added] = code_of.try_emplace(bits, uint8_t(distinct.size()));
      if (added) {
        if (distinct.size() == 256) return {};
        distinct.push_back(values[i]);
      }
      codes[i] = it->second;
    }
    return codes;
  }
  template <class V>
  static void keep_marked(std::vector<V>& v, const std::vector<uint8_t>& kept) {
    size_t out = 0;
    for (size_t i = 0; i < kept.size(); ++i)
      if (kept[i]) v[out++] = v[i];
    v.resize(out);
  }

  std::vector<T> values_;       // one, distinct ones (codes_), per source or per connection
  std::vector<uint8_t> codes_;  // per source, into values_, where that is the compact way
  size_t per_source_ = 0, per_connection_ = 1;
};

}  // namespace ranvier
