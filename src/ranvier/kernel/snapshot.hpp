// A rank's share of a running simulation's state, addressed by node id and connection rather
// than by where it lives, so that another partition can take it up (checkpoints). Named
// columns; rows of one kind of item share a prefix ("neuron.", "input."). Most columns are
// int64 or double; the connections keep the narrower types their tables keep. What Python's
// checkpoint writes and reads; the rest of the network's structure (Create calls, parameters,
// devices' and recorders' connections) travels through the usual queries.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"

namespace ranvier {

struct Snapshot {
  std::map<std::string, std::vector<int64_t>> ints;
  std::map<std::string, std::vector<double>> reals;
  std::map<std::string, std::vector<uint32_t>> u32;
  std::map<std::string, std::vector<uint16_t>> u16;
  std::map<std::string, std::vector<uint8_t>> u8;

  template <class T>
  std::map<std::string, std::vector<T>>& columns() {
    if constexpr (std::is_same_v<T, int64_t>)
      return ints;
    else if constexpr (std::is_same_v<T, double>)
      return reals;
    else if constexpr (std::is_same_v<T, uint32_t>)
      return u32;
    else if constexpr (std::is_same_v<T, uint16_t>)
      return u16;
    else
      return u8;
  }
  // A column that must exist (a snapshot from a file names every one); throws naming it.
  template <class T>
  const std::vector<T>& column(const std::string& name) const {
    const auto& all = const_cast<Snapshot&>(*this).columns<T>();
    const auto it = all.find(name);
    if (it == all.end()) throw BadParameterError("the checkpoint has no column " + name + " of its type");
    return it->second;
  }
  const std::vector<int64_t>& int_column(const std::string& name) const { return column<int64_t>(name); }
  const std::vector<double>& real_column(const std::string& name) const { return column<double>(name); }
};

}  // namespace ranvier
