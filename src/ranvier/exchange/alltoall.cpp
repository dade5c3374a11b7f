// Directed exchange (NEST's spike compression): each spike goes once to every rank that
// hosts targets of its neuron, in fixed-size chunks per rank pair. When a chunk overflows,
// all ranks grow their chunks and repeat the round; chunks shrink again after a long quiet
// spell. Every resize is logged.
#include <algorithm>
#include <cstring>

#include "exchange/spike_entry.hpp"
#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

// A chunk starts with its spike count, padded to an entry's size so entries stay aligned.
struct ChunkHeader {
  uint32_t count, padding;
};
static_assert(sizeof(ChunkHeader) == sizeof(SpikeEntry));

class AlltoallExchange final : public SpikeExchange {
 public:
  const char* name() const override { return "alltoall"; }
  bool directed() const override { return true; }

  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    const size_t m = size_t(setup_->comm->size());
    const int me = setup_->comm->rank();
    std::vector<std::vector<SpikeEntry>> out(m);
    for (const Spike& s : local) {
      const size_t i = index_in(setup_->local_gids, s.gid);
      for (size_t k = setup_->target_offsets[i]; k < setup_->target_offsets[i + 1]; ++k)
        out[size_t(setup_->target_ranks[k])].push_back(to_entry(s, origin));
    }
    size_t needed = 0, sent = local.size();
    for (const auto& o : out) needed = std::max(needed, o.size()), sent += o.size();

    for (;;) {
      // chunk layout: [count][entries ...], capacity_ entries of 8 bytes
      const size_t chunk = sizeof(ChunkHeader) + sizeof(SpikeEntry) * capacity_;
      std::vector<uint8_t> send(chunk * m), recv(chunk * m);
      for (size_t r = 0; r < m; ++r) {
        const ChunkHeader header{uint32_t(out[r].size()), 0};
        std::memcpy(send.data() + r * chunk, &header, sizeof header);
        std::memcpy(send.data() + r * chunk + sizeof header, out[r].data(),
                    std::min(out[r].size(), capacity_) * sizeof(SpikeEntry));
      }
      setup_->comm->alltoall(send.data(), chunk, recv.data());
      const size_t global_needed = size_t(setup_->comm->max(double(needed)));
      if (global_needed > capacity_) {  // some chunk overflowed somewhere: grow and repeat
        resize(std::max(global_needed + global_needed / 2, capacity_ * 2), "grow");
        ++counters_.repeats;
        continue;
      }
      quiet_ = global_needed * 4 < capacity_ ? quiet_ + 1 : 0;
      if (quiet_ >= 1000 && capacity_ > initial_capacity) resize(capacity_ / 2, "shrink");

      received.assign(local.begin(), local.end());
      for (size_t r = 0; r < m; ++r) {
        if (int(r) == me) continue;
        ChunkHeader header;
        std::memcpy(&header, recv.data() + r * chunk, sizeof header);
        const auto* entries = reinterpret_cast<const SpikeEntry*>(recv.data() + r * chunk + sizeof header);
        for (uint32_t k = 0; k < header.count; ++k) received.push_back(to_spike(entries[k], origin));
      }
      check_conservation(int64_t(sent), int64_t(received.size()));
      return;
    }
  }

 private:
  void resize(size_t capacity, const char* why) {
    counters_.resize_log.push_back("cycle " + std::to_string(counters_.cycles) + ": alltoall chunk " + why + " " +
                                   std::to_string(capacity_) + " -> " + std::to_string(capacity) + " spikes");
    capacity_ = capacity;
    quiet_ = 0;
  }
  static constexpr size_t initial_capacity = 16;
  size_t capacity_ = initial_capacity;  // entries per rank pair
  int quiet_ = 0;
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(alltoall, AlltoallExchange);

}  // namespace ranvier
