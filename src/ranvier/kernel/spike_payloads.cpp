#include "kernel/spike_payloads.hpp"

#include <algorithm>

namespace ranvier {
namespace {

bool before(const SpikePayload& a, const SpikePayload& b) { return a.gid != b.gid ? a.gid < b.gid : a.stamp < b.stamp; }

}  // namespace

void SpikePayloads::prepare(const std::vector<ThreadState>& threads, Communicator& comm) {
  std::vector<int64_t> any{0};
  for (const ThreadState& ts : threads)
    for (const NeuronGroup& g : ts.groups)
      if (g.model->spike_payload() && !g.gids.empty()) any[0] = 1;
  comm.allreduce(any, ReduceOp::max);
  active_ = any[0] != 0;
  if (!active_) received_.clear();
}

void SpikePayloads::end_cycle(std::vector<ThreadState>& threads, Communicator& comm, int64_t keep_from) {
  std::vector<SpikePayload> local;
  for (ThreadState& ts : threads) {
    local.insert(local.end(), ts.payloads.begin(), ts.payloads.end());
    ts.payloads.clear();
  }
  local = allgather_items(comm, local);
  std::erase_if(received_, [&](const SpikePayload& p) { return p.stamp < keep_from; });
  received_.insert(received_.end(), local.begin(), local.end());
  std::sort(received_.begin(), received_.end(), before);
}

const double* SpikePayloads::find(uint32_t gid, int64_t stamp) const {
  const SpikePayload key{gid, stamp, 0.0};
  const auto it = std::lower_bound(received_.begin(), received_.end(), key, before);
  return it != received_.end() && it->gid == gid && it->stamp == stamp ? &it->value : nullptr;
}

void SpikePayloads::restore(std::vector<SpikePayload> received) {
  std::sort(received.begin(), received.end(), before);
  received_ = std::move(received);
}

}  // namespace ranvier
