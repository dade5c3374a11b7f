// Allgather with compressed spikes (Hines et al. (2011)): a spike travels as (index of the neuron on its
// rank, step within the cycle) in as few bytes as the sizes allow. Every rank sends a
// fixed-size block; spikes beyond the block's capacity follow in one allgatherv round.
#include <algorithm>

#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

int bytes_for(uint64_t max_value) {
  int n = 1;
  while (n < 4 && max_value >= (uint64_t(1) << (8 * n))) ++n;
  return n;
}

class AllgatherExchange final : public SpikeExchange {
 public:
  const char* name() const override { return "allgather"; }

  void prepare(const ExchangeSetup& setup) override {
    SpikeExchange::prepare(setup);
    size_t most = 1;
    for (const auto& g : setup.rank_gids) most = std::max(most, g.size());
    index_bytes_ = bytes_for(most - 1);
    lag_bytes_ = bytes_for(uint64_t(setup.min_delay - 1));
    entry_bytes_ = size_t(index_bytes_ + lag_bytes_);
  }

  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    const int m = setup_->comm->size();
    std::vector<uint8_t> encoded;
    encoded.reserve(local.size() * entry_bytes_);
    for (const Spike& s : local) {
      put(encoded, index_in(setup_->local_gids, s.gid), index_bytes_);
      put(encoded, uint64_t(s.stamp - origin - 1), lag_bytes_);
    }
    // Fixed block: spike count, then as many spikes as fit.
    const size_t block = 4 + capacity_ * entry_bytes_;
    std::vector<uint8_t> mine(block, 0);
    const uint32_t count = uint32_t(local.size());
    std::copy_n(reinterpret_cast<const uint8_t*>(&count), 4, mine.begin());
    const size_t inline_bytes = std::min(encoded.size(), capacity_ * entry_bytes_);
    std::copy_n(encoded.begin(), inline_bytes, mine.begin() + 4);
    std::vector<uint8_t> all(block * size_t(m));
    setup_->comm->allgather(mine.data(), block, all.data());

    std::vector<uint32_t> counts(static_cast<size_t>(m));
    size_t most = 0;
    for (int r = 0; r < m; ++r) {
      std::copy_n(all.begin() + long(size_t(r) * block), 4, reinterpret_cast<uint8_t*>(&counts[size_t(r)]));
      most = std::max<size_t>(most, counts[size_t(r)]);
    }
    std::vector<uint8_t> overflow;
    std::vector<int> over_counts(static_cast<size_t>(m), 0), over_displ(static_cast<size_t>(m), 0);
    if (most > capacity_) {  // the spikes that did not fit, in one Allgatherv
      for (int r = 0; r < m; ++r) {
        over_counts[size_t(r)] = int((counts[size_t(r)] > capacity_ ? counts[size_t(r)] - capacity_ : 0) * entry_bytes_);
        if (r) over_displ[size_t(r)] = over_displ[size_t(r - 1)] + over_counts[size_t(r - 1)];
      }
      overflow.resize(size_t(over_displ.back() + over_counts.back()));
      setup_->comm->allgatherv(encoded.data() + inline_bytes, over_counts, over_displ, overflow.data());
      ++counters_.repeats;
      const size_t grown = std::max(capacity_ * 2, most);
      counters_.resize_log.push_back("cycle " + std::to_string(counters_.cycles) + ": allgather block " +
                                     std::to_string(capacity_) + " -> " + std::to_string(grown) + " spikes");
      capacity_ = grown;
    }

    received.clear();
    for (int r = 0; r < m; ++r) {
      const uint8_t* in_block = all.data() + size_t(r) * block + 4;
      const size_t n_inline = std::min<size_t>(counts[size_t(r)], (block - 4) / entry_bytes_);
      for (size_t k = 0; k < counts[size_t(r)]; ++k) {
        const uint8_t* e = k < n_inline ? in_block + k * entry_bytes_
                                        : overflow.data() + over_displ[size_t(r)] + (k - n_inline) * entry_bytes_;
        const uint64_t index = get(e, index_bytes_), lag = get(e + index_bytes_, lag_bytes_);
        received.push_back({setup_->rank_gids[size_t(r)][index], origin + 1 + int64_t(lag)});
      }
    }
    check_conservation(int64_t(local.size()) * m, int64_t(received.size()));
  }

 private:
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
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(allgather, AllgatherExchange);

}  // namespace ranvier
