#include "kernel/flush_events.hpp"

#include <algorithm>

namespace ranvier {

void FlushEvents::prepare(const std::vector<ThreadState>& threads, const std::vector<SynapseModel>& models,
                          Communicator& comm) {
  std::vector<int64_t> any{0};
  for (const ThreadState& ts : threads)
    for (size_t syn = 0; syn < models.size(); ++syn)
      if (models[syn].base->eprop != Eprop::none && ts.tables[syn].size() + ts.long_tables[syn].size()) any[0] = 1;
  comm.allreduce(any, ReduceOp::max);
  active_ = any[0] != 0;
  if (!active_) received_.clear();
}

void FlushEvents::end_cycle(std::vector<ThreadState>& threads, Communicator& comm) {
  std::vector<Spike> local;
  for (ThreadState& ts : threads) {
    local.insert(local.end(), ts.flushes.begin(), ts.flushes.end());
    ts.flushes.clear();
  }
  local = allgather_items(comm, local);
  std::sort(local.begin(), local.end());
  received_ = std::move(local);
}

}  // namespace ranvier
