// A rank's share of a running simulation's state, addressed by node id and connection rather
// than by where it lives, so that another partition can take it up (checkpoints). Named
// columns of integers and of reals; rows of one kind of item share a prefix ("neuron.",
// "input."). What Python's checkpoint writes and reads; the network's structure (nodes,
// connections, parameters) travels through the usual queries and is rebuilt by them.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ranvier {

struct Snapshot {
  std::map<std::string, std::vector<int64_t>> ints;
  std::map<std::string, std::vector<double>> reals;
  // A column that must exist (a snapshot from a file names every one); throws naming it.
  const std::vector<int64_t>& int_column(const std::string& name) const;
  const std::vector<double>& real_column(const std::string& name) const;
};

}  // namespace ranvier
