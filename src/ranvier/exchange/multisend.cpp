// Multisend (Hines et al. (2011)): each spike batch goes by non-blocking point-to-point messages only
// to the ranks that need it. A rank cannot know how many messages will reach it, so the
// cycle ends when an allreduce shows that all ranks together received as many spike
// entries as were sent (the conservation check). With multisend_phases = 2 a spike for a
// distant group of ranks goes once to a relay in that group (groups of about sqrt(M) ranks),
// which forwards it to the final ranks. With multisend_subintervals = 2 and overlap_exchange,
// the first half-cycle's messages travel while the second half is updated.
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "exchange/spike_entry.hpp"
#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

constexpr int tag_final = 71, tag_relay = 72;

class MultisendExchange final : public SpikeExchange {
 public:
  const char* name() const override { return "multisend"; }
  bool directed() const override { return true; }

  void prepare(const ExchangeSetup& setup) override {
    SpikeExchange::prepare(setup);
    const int m = setup.comm->size();
    group_size_ = setup.multisend_phases == 2 ? std::max(1, int(std::ceil(std::sqrt(double(m))))) : m;
  }

  // Two sub-intervals per min delay (Hines et al. (2011)): the first half's spikes are sent
  // when it ends and must have arrived by the end of the second.
  bool overlaps() const override { return setup_->multisend_subintervals == 2; }

  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    start(local, origin);
    finish(received);
    ++counters_.cycles;
  }

  // Sends every spike's messages at once, without waiting.
  void start(const std::vector<Spike>& local, int64_t origin) override {
    const int m = setup_->comm->size(), me = setup_->comm->rank();
    origin_ = origin;
    received_.assign(local.begin(), local.end());
    sent_ = got_ = int64_t(local.size());
    std::vector<std::vector<uint32_t>> direct(static_cast<size_t>(m)), relay(static_cast<size_t>(m));
    for (const Spike& s : local) {
      const size_t i = index_in(setup_->local_gids, s.gid);
      const SpikeEntry e = to_entry(s, origin, setup_->lag_code);
      for (size_t k = setup_->target_offsets[i]; k < setup_->target_offsets[i + 1];) {
        const int32_t first = setup_->target_ranks[k];
        const int group = first / group_size_;
        size_t end = k;  // target ranks are ascending, so a group's ranks are adjacent
        while (end < setup_->target_offsets[i + 1] && setup_->target_ranks[end] / group_size_ == group) ++end;
        sent_ += int64_t(end - k);
        if (group == me / group_size_ || end - k == 1) {
          for (size_t q = k; q < end; ++q)
            direct[size_t(setup_->target_ranks[q])].insert(direct[size_t(setup_->target_ranks[q])].end(),
                                                           {e.gid, e.lag});
        } else {
          const int group_first = group * group_size_;
          const int members = std::min(group_size_, m - group_first);
          auto& msg = relay[size_t(group_first + me % members)];
          msg.insert(msg.end(), {e.gid, e.lag, uint32_t(end - k)});
          for (size_t q = k; q < end; ++q) msg.push_back(uint32_t(setup_->target_ranks[q]));
        }
        k = end;
      }
    }
    for (int r = 0; r < m; ++r) {
      send(std::move(direct[size_t(r)]), r, tag_final);
      send(std::move(relay[size_t(r)]), r, tag_relay);
    }
  }

  // Receives (and relays) what has arrived. Whether everything has arrived only the global
  // check tells, so the exchange counts as under way until finish().
  bool progress() override {
    drain();
    return false;
  }

  // The conservation check closes the exchange: all ranks together received as many entries
  // as were sent. No rank sends the next exchange's messages before every rank has passed
  // it, so messages of two exchanges never mix.
  void finish(std::vector<Spike>& received) override {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      drain();
      std::vector<int64_t> totals{sent_, got_};
      setup_->comm->allreduce(totals, ReduceOp::sum);
      if (totals[0] == totals[1]) break;
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(120))
        throw KernelStateError("multisend exchange lost spikes: " + std::to_string(totals[0]) + " entries sent, " +
                               std::to_string(totals[1]) + " received");
    }
    setup_->comm->wait_sends();
    counters_.sent += uint64_t(sent_);
    counters_.received += uint64_t(got_);
    received.swap(received_);
    received_.clear();
  }

 private:
  void send(std::vector<uint32_t>&& message, int rank, int tag) {
    if (!message.empty()) setup_->comm->isend(std::move(message), rank, tag);
  }

  // Receives whatever has arrived; relays forward what they receive for others.
  void drain() {
    const int me = setup_->comm->rank();
    int source = 0, tag = 0;
    std::vector<uint32_t> in;
    while (setup_->comm->poll(source, tag, in)) {
      if (tag == tag_final) {
        for (size_t k = 0; k + 1 < in.size(); k += 2)
          received_.push_back(to_spike({in[k], in[k + 1]}, origin_, setup_->lag_code));
        got_ += int64_t(in.size() / 2);
        continue;
      }
      std::vector<std::vector<uint32_t>> forward(size_t(setup_->comm->size()));
      for (size_t k = 0; k < in.size();) {
        const uint32_t gid = in[k], lag = in[k + 1], count = in[k + 2];
        for (uint32_t q = 0; q < count; ++q) {
          const int target = int(in[k + 3 + q]);
          if (target == me) {
            received_.push_back(to_spike({gid, lag}, origin_, setup_->lag_code));
            ++got_;
          } else {
            forward[size_t(target)].insert(forward[size_t(target)].end(), {gid, lag});
          }
        }
        k += 3 + count;
      }
      for (size_t r = 0; r < forward.size(); ++r) send(std::move(forward[r]), int(r), tag_final);
    }
  }

  int group_size_ = 1;
  // the exchange under way
  int64_t origin_ = 0, sent_ = 0, got_ = 0;
  std::vector<Spike> received_;
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(multisend, MultisendExchange);

}  // namespace ranvier
