// Directed exchange (NEST's spike compression): each spike goes once to every rank that
// hosts targets of its neuron, in fixed-size chunks per rank pair. When a chunk overflows,
// the entries beyond it follow in a second round and all ranks grow their chunks; chunks
// shrink again after a long quiet spell. Every resize is logged. Both rounds are
// non-blocking, so an overlapped exchange runs while the cells update.
#include <algorithm>
#include <cstring>

#include "exchange/spike_entry.hpp"
#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

// A chunk starts with its spike count and the most spikes its sender has for any rank, so
// after one round every rank knows whether any chunk overflowed; padded to an entry's size.
struct ChunkHeader {
  uint32_t count, most;
};
static_assert(sizeof(ChunkHeader) == sizeof(SpikeEntry));

class AlltoallExchange final : public TwoRoundExchange {
 public:
  const char* name() const override { return "alltoall"; }
  bool directed() const override { return true; }
  bool overlaps() const override { return true; }

  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    start(local, origin);
    finish(received);
    check_conservation();
  }

  // Round one: a chunk of fixed size to every rank, by MPI_Ialltoall.
  void start(const std::vector<Spike>& local, int64_t origin) override {
    const size_t m = size_t(setup_->comm->size());
    origin_ = origin;
    local_ = local;
    out_.assign(m, {});
    for (const Spike& s : local) {
      const size_t i = index_in(setup_->local_gids, s.gid);
      for (size_t k = setup_->target_offsets[i]; k < setup_->target_offsets[i + 1]; ++k)
        out_[size_t(setup_->target_ranks[k])].push_back(to_entry(s, origin, setup_->lag_code));
    }
    size_t needed = 0;
    sent_ = local.size();
    for (const auto& o : out_) needed = std::max(needed, o.size()), sent_ += o.size();
    fit_ = capacity_;
    chunk_ = sizeof(ChunkHeader) + sizeof(SpikeEntry) * fit_;
    send_.assign(chunk_ * m, 0);
    recv_.resize(chunk_ * m);
    for (size_t r = 0; r < m; ++r) {
      const ChunkHeader header{uint32_t(out_[r].size()), uint32_t(needed)};
      std::memcpy(send_.data() + r * chunk_, &header, sizeof header);
      std::memcpy(send_.data() + r * chunk_ + sizeof header, out_[r].data(),
                  std::min(out_[r].size(), fit_) * sizeof(SpikeEntry));
    }
    Communicator& comm = *setup_->comm;
    start_fixed_round(
        chunk_, [&] { return comm.alltoall_init(send_.data(), chunk_, recv_.data()); },
        [&] { return comm.ialltoall(send_.data(), chunk_, recv_.data()); });
  }

  void finish(std::vector<Spike>& received) override {
    complete_rounds();
    const size_t m = size_t(setup_->comm->size());
    const size_t me = size_t(setup_->comm->rank());
    received.assign(local_.begin(), local_.end());
    for (size_t r = 0; r < m; ++r) {
      if (r == me) continue;
      ChunkHeader header;
      std::memcpy(&header, recv_.data() + r * chunk_, sizeof header);
      const auto* entries = reinterpret_cast<const SpikeEntry*>(recv_.data() + r * chunk_ + sizeof header);
      for (uint32_t k = 0; k < std::min<size_t>(header.count, fit_); ++k)
        received.push_back(to_spike(entries[k], origin_, setup_->lag_code));
      if (header.count <= fit_) continue;
      const auto* rest = reinterpret_cast<const SpikeEntry*>(over_recv_.data() + over_displ_[r]);
      for (size_t k = 0; k < header.count - fit_; ++k) received.push_back(to_spike(rest[k], origin_, setup_->lag_code));
    }
    count_exchanged(int64_t(sent_), int64_t(received.size()));
  }

 private:
  // Round two, when some chunk overflowed anywhere (every rank sees every sender's most):
  // the entries beyond the chunks go by MPI_Ialltoallv, and the chunks grow.
  void begin_overflow_round() override {
    const size_t m = size_t(setup_->comm->size());
    std::vector<ChunkHeader> headers(m);
    size_t global_needed = 0;
    for (size_t r = 0; r < m; ++r) {
      std::memcpy(&headers[r], recv_.data() + r * chunk_, sizeof(ChunkHeader));
      global_needed = std::max<size_t>(global_needed, headers[r].most);
    }
    if (global_needed <= fit_) {
      quiet_ = global_needed * 4 < capacity_ ? quiet_ + 1 : 0;
      if (quiet_ >= 1000 && capacity_ > initial_capacity) resize(capacity_ / 2, "shrink");
      round_ = 0;
      return;
    }
    std::vector<int> send_counts(m), send_displ(m, 0), recv_counts(m), recv_displ(m, 0);
    constexpr size_t entry = sizeof(SpikeEntry);
    over_send_.clear();
    for (size_t r = 0; r < m; ++r) {
      const size_t extra = out_[r].size() > fit_ ? out_[r].size() - fit_ : 0;
      send_counts[r] = int(extra * entry);
      recv_counts[r] = int((headers[r].count > fit_ ? headers[r].count - fit_ : 0) * entry);
      if (r) send_displ[r] = send_displ[r - 1] + send_counts[r - 1];
      if (r) recv_displ[r] = recv_displ[r - 1] + recv_counts[r - 1];
      if (extra) append_bytes(over_send_, out_[r].data() + fit_, extra);
    }
    over_recv_.resize(size_t(recv_displ.back() + recv_counts.back()));
    over_displ_.resize(m);
    for (size_t r = 0; r < m; ++r) over_displ_[r] = size_t(recv_displ[r]);
    start_overflow_round(setup_->comm->ialltoallv(over_send_.data(), send_counts, send_displ, over_recv_.data(),
                                                  recv_counts, recv_displ));
    ++counters_.repeats;
    resize(std::max(global_needed + global_needed / 2, capacity_ * 2), "grow");
  }

  void resize(size_t capacity, const char* why) {
    counters_.resize_log.push_back("cycle " + std::to_string(counters_.cycles) + ": alltoall chunk " + why + " " +
                                   std::to_string(capacity_) + " -> " + std::to_string(capacity) + " spikes");
    capacity_ = capacity;
    quiet_ = 0;
  }
  static constexpr size_t initial_capacity = 16;
  size_t capacity_ = initial_capacity;  // entries per rank pair
  int quiet_ = 0;
  // the exchange under way: its buffers stay put until it completes
  int64_t origin_ = 0;
  size_t fit_ = 0, chunk_ = 0, sent_ = 0;  // fit_: entries per chunk in this exchange
  std::vector<Spike> local_;
  std::vector<std::vector<SpikeEntry>> out_;
  std::vector<uint8_t> send_, recv_, over_send_, over_recv_;
  std::vector<size_t> over_displ_;
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(alltoall, AlltoallExchange);

}  // namespace ranvier
