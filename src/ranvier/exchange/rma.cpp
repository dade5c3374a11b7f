// One-sided allgather by recursive doubling (Shehzad & Bozkus (2016)): every rank exposes a window with one
// block per rank; in step k a rank puts all blocks it knows into the window of the rank
// 2^k away, with a fence per step, so log2(M) steps complete the gather. For M not a power
// of two, the ranks above the largest power of two p first hand their block to rank r - p
// and get the full window back at the end. Blocks grow (a new window) when a rank's spikes
// would not fit.
#include <algorithm>
#include <cstring>

#include "exchange/spike_entry.hpp"
#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

// A rank's block starts with its spike count, padded to an entry's size so entries stay aligned.
struct BlockHeader {
  uint32_t count, padding;
};
static_assert(sizeof(BlockHeader) == sizeof(SpikeEntry));

class RmaExchange final : public SpikeExchange {
 public:
  const char* name() const override { return "rma"; }

  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    const int m = setup_->comm->size(), me = setup_->comm->rank();
    const size_t most = size_t(setup_->comm->max(double(local.size())));
    if (most > capacity_ || !window_) {
      const size_t grown = std::max(capacity_, most + most / 2);
      if (window_)
        counters_.resize_log.push_back("cycle " + std::to_string(counters_.cycles) + ": rma block " +
                                       std::to_string(capacity_) + " -> " + std::to_string(grown) + " spikes");
      capacity_ = grown;
      window_.reset();  // the old window goes first
      window_ = setup_->comm->make_window(size_t(m) * block_bytes());
    }
    // own block: [count][entries]
    uint8_t* own = block(me);
    const BlockHeader header{uint32_t(local.size()), 0};
    std::memcpy(own, &header, sizeof header);
    auto* entries = reinterpret_cast<SpikeEntry*>(own + sizeof header);
    for (size_t k = 0; k < local.size(); ++k) entries[k] = to_entry(local[k], origin, setup_->lag_code);

    int p = 1;
    while (p * 2 <= m) p *= 2;
    window_->fence();
    if (me >= p) put_blocks(me - p, me, me + 1);  // extras hand their block down
    window_->fence();
    if (me < p) {
      for (int step = 1; step < p; step *= 2) {
        const int base = me & ~(step - 1);  // blocks of ranks [base, base + step) are known
        put_blocks(me ^ step, base, base + step);
        if (base + p < m) put_blocks(me ^ step, base + p, std::min(m, base + step + p));
        window_->fence();
      }
    } else {
      for (int step = 1; step < p; step *= 2) window_->fence();
    }
    if (me < p && me + p < m) put_blocks(me + p, 0, m);  // and get everything back
    window_->fence();

    received.clear();
    for (int r = 0; r < m; ++r) {
      BlockHeader h;
      std::memcpy(&h, block(r), sizeof h);
      const auto* in = reinterpret_cast<const SpikeEntry*>(block(r) + sizeof h);
      for (uint32_t k = 0; k < h.count; ++k) received.push_back(to_spike(in[k], origin, setup_->lag_code));
    }
    count_exchanged(int64_t(local.size()) * m, int64_t(received.size()));
    check_conservation();
  }

 private:
  size_t block_bytes() const { return sizeof(BlockHeader) + sizeof(SpikeEntry) * capacity_; }
  uint8_t* block(int r) { return window_->base() + size_t(r) * block_bytes(); }
  // Puts the blocks of ranks [first, last) into the same place of rank `to`'s window.
  void put_blocks(int to, int first, int last) {
    if (first >= last) return;
    const size_t offset = size_t(first) * block_bytes(), bytes = size_t(last - first) * block_bytes();
    window_->put(window_->base() + offset, bytes, to, offset);
  }
  size_t capacity_ = 64;  // spikes per block
  std::unique_ptr<Window> window_;
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(rma, RmaExchange);

}  // namespace ranvier
