// Allgather with compressed spikes (Hines et al. (2011)): a spike travels as (index of the neuron on its
// rank, step within the cycle) in as few bytes as the sizes allow. Every rank sends a
// fixed-size block; spikes beyond the block's capacity follow in one allgatherv round. Both
// rounds are non-blocking, so an overlapped exchange runs while the cells update.
#include <algorithm>

#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

int bytes_for(uint64_t max_value) {
  int n = 1;
  while (n < 4 && max_value >= (uint64_t(1) << (8 * n))) ++n;
  return n;
}

class AllgatherExchange final : public TwoRoundExchange {
 public:
  const char* name() const override { return "allgather"; }
  bool needs_rank_gids() const override { return true; }  // a spike travels as its index on its rank

  void prepare(const ExchangeSetup& setup) override {
    TwoRoundExchange::prepare(setup);
    size_t most = 1;
    for (const auto& g : setup.rank_gids) most = std::max(most, g.size());
    index_bytes_ = bytes_for(most - 1);
    lag_bytes_ = bytes_for(uint64_t(setup.min_delay) * setup.lag_code.offsets - 1);
    entry_bytes_ = size_t(index_bytes_ + lag_bytes_);
  }

  bool overlaps() const override { return true; }

  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    start(local, origin);
    finish(received);
    check_conservation();
  }

  // Round one: every rank's fixed block (spike count, then as many spikes as fit), by MPI_Iallgather.
  void start(const std::vector<Spike>& local, int64_t origin) override {
    const size_t m = size_t(setup_->comm->size());
    origin_ = origin;
    local_count_ = local.size();
    encoded_.clear();
    encoded_.reserve(local.size() * entry_bytes_);
    for (const Spike& s : local) {
      put(encoded_, index_in(setup_->local_gids, s.gid), index_bytes_);
      put(encoded_, setup_->lag_code.encode(s, origin), lag_bytes_);
    }
    block_ = 4 + capacity_ * entry_bytes_;
    mine_.assign(block_, 0);
    const uint32_t count = uint32_t(local.size());
    std::copy_n(reinterpret_cast<const uint8_t*>(&count), 4, mine_.begin());
    inline_bytes_ = std::min(encoded_.size(), capacity_ * entry_bytes_);
    std::copy_n(encoded_.begin(), inline_bytes_, mine_.begin() + 4);
    all_.resize(block_ * m);
    Communicator& comm = *setup_->comm;
    start_fixed_round(
        block_, [&] { return comm.allgather_init(mine_.data(), block_, all_.data()); },
        [&] { return comm.iallgather(mine_.data(), block_, all_.data()); });
  }

  void finish(std::vector<Spike>& received) override {
    complete_rounds();
    const int m = setup_->comm->size();
    received.clear();
    for (int r = 0; r < m; ++r) {
      const uint8_t* in_block = all_.data() + size_t(r) * block_ + 4;
      const size_t n_inline = std::min<size_t>(counts_[size_t(r)], (block_ - 4) / entry_bytes_);
      for (size_t k = 0; k < counts_[size_t(r)]; ++k) {
        const uint8_t* e = k < n_inline ? in_block + k * entry_bytes_
                                        : overflow_.data() + over_displ_[size_t(r)] + (k - n_inline) * entry_bytes_;
        const uint64_t index = get(e, index_bytes_), lag = get(e + index_bytes_, lag_bytes_);
        received.push_back(setup_->lag_code.decode(setup_->rank_gids[size_t(r)][index], lag, origin_));
      }
    }
    count_exchanged(int64_t(local_count_) * m, int64_t(received.size()));
  }

 private:
  // Round two, when some rank's spikes did not fit its block: every rank knows all counts
  // from round one, so all agree on it; the rest follows by MPI_Iallgatherv, and blocks grow.
  void begin_overflow_round() override {
    const int m = setup_->comm->size();
    counts_.assign(size_t(m), 0);
    size_t most = 0;
    for (int r = 0; r < m; ++r) {
      std::copy_n(all_.begin() + long(size_t(r) * block_), 4, reinterpret_cast<uint8_t*>(&counts_[size_t(r)]));
      most = std::max<size_t>(most, counts_[size_t(r)]);
    }
    const size_t fit = (block_ - 4) / entry_bytes_;
    if (most <= fit) {
      round_ = 0;
      return;
    }
    std::vector<int> over_counts(size_t(m), 0);
    over_displ_.assign(size_t(m), 0);
    for (int r = 0; r < m; ++r) {
      over_counts[size_t(r)] = int((counts_[size_t(r)] > fit ? counts_[size_t(r)] - fit : 0) * entry_bytes_);
      if (r) over_displ_[size_t(r)] = over_displ_[size_t(r - 1)] + over_counts[size_t(r - 1)];
    }
    overflow_.resize(size_t(over_displ_.back() + over_counts.back()));
    start_overflow_round(
        setup_->comm->iallgatherv(encoded_.data() + inline_bytes_, over_counts, over_displ_, overflow_.data()));
    ++counters_.repeats;
    const size_t grown = std::max(capacity_ * 2, most);
    counters_.resize_log.push_back("cycle " + std::to_string(counters_.cycles) + ": allgather block " +
                                   std::to_string(capacity_) + " -> " + std::to_string(grown) + " spikes");
    capacity_ = grown;
  }

  static void put(std::vector<uint8_t>& out, uint64_t value, int bytes) {
    for (int b = 0; b < bytes; ++b) out.push_back(uint8_t(value >> (8 * b)));
  }
  static uint64_t get(const uint8_t* in, int bytes) {
    uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= uint64_t(in[b]) << (8 * b);
    return v;
  }
  int index_bytes_ = 4, lag_bytes_ = 1;
  size_t entry_bytes_ = 5;
  size_t capacity_ = 16;  // spikes per rank in the fixed block
  // the exchange under way: its buffers stay put until it completes
  int64_t origin_ = 0;
  size_t local_count_ = 0, block_ = 0, inline_bytes_ = 0;
  std::vector<uint8_t> encoded_, mine_, all_, overflow_;
  std::vector<uint32_t> counts_;
  std::vector<int> over_displ_;
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(allgather, AllgatherExchange);

}  // namespace ranvier
