// Where a checkpoint's values belong on this rank: each input column's node and port, and each
// node's instances (kernel/checkpoint.cpp, kernel/checkpoint_connections.cpp).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "kernel/thread_state.hpp"

namespace ranvier::checkpoint {

// Where each input column of a thread belongs: its cell's node id and port.
struct ColumnOwner {
  uint32_t gid = 0, port = 0;
  // A replicated node's instance that another holds the state of (one instance, on rank 0's
  // first thread, is saved; every instance takes it back).
  bool copy = false;
};

inline std::vector<ColumnOwner> column_owners(const ThreadState& ts, bool first_instance) {
  std::vector<ColumnOwner> owners(ts.n_inputs());
  for (const NeuronGroup& g : ts.groups)
    for (uint32_t port = 0; port < g.ports; ++port)
      for (size_t i = 0; i < g.size(); ++i)
        owners[g.input(i, port)] = {g.gids[i], port, g.model->replicated() && !first_instance};
  return owners;
}

// Where a neuron lives on this rank, by node id.
struct Where {
  static constexpr uint32_t elsewhere = UINT32_MAX;
  uint32_t thread = elsewhere, group = 0, index = 0;
};

// Every instance of each node on this rank: one where it lives, or one per thread for a
// replicated node (a volume transmitter), which takes the saved state of its one instance.
class Instances {
 public:
  explicit Instances(const std::vector<ThreadState>& threads, uint32_t nodes) : one_(size_t(nodes) + 1) {
    for (uint32_t t = 0; t < threads.size(); ++t)
      for (uint32_t gi = 0; gi < threads[t].groups.size(); ++gi) {
        const NeuronGroup& g = threads[t].groups[gi];
        for (uint32_t i = 0; i < g.size(); ++i) {
          if (g.model->replicated()) replicas_[g.gids[i]].push_back({t, gi, i});
          one_[g.gids[i]] = {t, gi, i};
        }
      }
  }
  // The instance of a node that is not replicated; null where it lives on another rank.
  const Where* find(int64_t gid) const {
    check(gid);
    return one_[size_t(gid)].thread == Where::elsewhere ? nullptr : &one_[size_t(gid)];
  }
  template <class F>
  void each(int64_t gid, F f) const {
    check(gid);
    if (const auto it = replicas_.find(uint32_t(gid)); it != replicas_.end()) {
      for (const Where& w : it->second) f(w);
    } else if (one_[size_t(gid)].thread != Where::elsewhere) {
      f(one_[size_t(gid)]);
    }
  }

 private:
  void check(int64_t gid) const {
    if (gid < 1 || size_t(gid) >= one_.size())
      throw BadParameterError("the checkpoint names node " + std::to_string(gid) + ", which does not exist");
  }
  std::vector<Where> one_;
  std::map<uint32_t, std::vector<Where>> replicas_;
};

}  // namespace ranvier::checkpoint
