// One interface for moving each rank's spikes of a cycle to the ranks that need them.
// Methods: local (one process), allgather (compressed, Hines et al. (2011)), alltoall (directed, NEST's
// spike compression), multisend (point to point with a conservation check, one or two
// phases, Hines et al. (2011)), rma (one-sided recursive doubling, Shehzad & Bozkus (2016)), and dry_run (synthetic
// spikes for the other ranks of a pretended M-rank run).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/spike.hpp"
#include "exchange/spike_entry.hpp"
#include "parallel/communicator.hpp"

namespace ranvier {

// What a method may know about the network, fixed when the kernel prepares.
struct ExchangeSetup {
  Communicator* comm = nullptr;
  int min_delay = 1;                 // steps per cycle
  LagCode lag_code;                  // how a spike's time within the cycle travels
  std::vector<uint32_t> local_gids;  // this rank's neurons, ascending
  // Ranks (other than this one) that host targets of each local neuron, by local index.
  std::vector<size_t> target_offsets;  // local_gids.size() + 1
  std::vector<int32_t> target_ranks;
  std::vector<std::vector<uint32_t>> rank_gids;  // every rank's neurons, where needs_rank_gids()
  int multisend_phases = 1;
  int multisend_subintervals = 1;  // 2: multisend overlaps (overlap_exchange)
  bool persistent = false;         // fixed-block rounds as persistent collectives
  int dry_run_ranks = 0;           // dry run: ranks pretended
  // dry run: the sources of this rank's connection tables (each ascending), so that the other
  // ranks' synthetic spikes come only from neurons with targets here, as a real rank's would
  std::vector<const std::vector<uint32_t>*> table_sources;
  uint32_t max_gid = 0;
};

struct ExchangeCounters {
  uint64_t sent = 0, received = 0;   // spike entries, summed over all cycles (this rank)
  uint64_t cycles = 0, repeats = 0;  // repeats: rounds redone after a buffer overflow
  double synthesis_s = 0.0;          // dry run: making the other ranks' spikes, no real rank's cost
  std::vector<std::string> resize_log;
};

class SpikeExchange {
 public:
  virtual ~SpikeExchange() = default;
  virtual const char* name() const = 0;
  virtual void prepare(const ExchangeSetup& setup) { setup_ = &setup; }
  // `local`: this rank's spikes of the cycle starting at `origin`, sorted. Returns in
  // `received` every spike this rank needs, its own included, in any order.
  virtual void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) = 0;
  // The same exchange split in three for overlap_exchange: start() hands over this rank's
  // spikes of an epoch and returns at once; progress() advances the transfer while the cells
  // update (true once it is complete); finish() completes it and returns what exchange()
  // would, leaving the conservation check to the next exchange(). Only methods whose
  // overlaps() is true offer these (the kernel calls them for no other).
  virtual void start(const std::vector<Spike>& local, int64_t origin);
  virtual bool progress() { return true; }
  virtual void finish(std::vector<Spike>& received);
  virtual bool overlaps() const { return false; }
  const ExchangeCounters& counters() const { return counters_; }
  // Global spike conservation: the entries all ranks sent equal those all ranks received,
  // summed over the exchanges counted since the last check (one allreduce per check; collective).
  void check_conservation();
  // What the method needs in its setup beyond the local neurons: the target tables (which
  // ranks need which spikes), and every rank's neuron list (to decode spikes sent as indices).
  virtual bool directed() const { return false; }
  virtual bool needs_rank_gids() const { return false; }

 protected:
  void count_exchanged(int64_t sent, int64_t received);
  const ExchangeSetup* setup_ = nullptr;
  ExchangeCounters counters_;

 private:
  int64_t unchecked_sent_ = 0, unchecked_received_ = 0;
};

// A non-blocking exchange in two rounds (allgather, alltoall): fixed-size blocks, then the
// overflow that did not fit, which each method starts in begin_overflow_round().
class TwoRoundExchange : public SpikeExchange {
 public:
  // A new setup may bring a new communicator: persistent collectives are set up again.
  void prepare(const ExchangeSetup& setup) override {
    persistent_.reset();
    SpikeExchange::prepare(setup);
  }
  bool progress() override {
    if (round_ == 1 && request_->test()) begin_overflow_round();
    if (round_ == 2 && request_->test()) round_ = 0;
    return round_ == 0;
  }

 protected:
  // Round one on the fixed blocks of `block` bytes. With persistent requests the collective
  // made by init() is set up once per block size and restarted at every exchange (the blocks
  // stay where they are while their size does, on every rank alike, so all ranks set up
  // again together); otherwise start() begins a fresh one.
  template <class Init, class Start>
  void start_fixed_round(size_t block, Init init, Start start) {
    if (setup_->persistent) {
      if (!persistent_ || block != persistent_block_) persistent_ = init(), persistent_block_ = block;
      persistent_->start();
      request_ = persistent_.get();
    } else {
      fresh_ = start();
      request_ = fresh_.get();
    }
    round_ = 1;
  }
  void start_overflow_round(std::unique_ptr<Request> request) {
    fresh_ = std::move(request);
    request_ = fresh_.get();
    round_ = 2;
  }
  // Waits for both rounds; the received buffers are complete afterwards.
  void complete_rounds() {
    if (round_ == 1) {
      request_->wait();
      begin_overflow_round();
    }
    if (round_ == 2) request_->wait();
    round_ = 0;
    request_ = nullptr;
    fresh_.reset();
  }
  virtual void begin_overflow_round() = 0;

  int round_ = 0;  // 1: the fixed blocks, 2: the overflow, 0: none under way

 private:
  Request* request_ = nullptr;  // the round under way
  std::unique_ptr<Request> fresh_;
  std::unique_ptr<PersistentRequest> persistent_;
  size_t persistent_block_ = 0;
};

using ExchangeMethods = Registry<std::unique_ptr<SpikeExchange> (*)()>;

// One line in a method's file makes it selectable as spike_exchange.
#define RANVIER_REGISTER_EXCHANGE(name, Method)                                               \
  [[maybe_unused]] const bool name##_registered = ::ranvier::ExchangeMethods::instance().add( \
      #name, []() -> std::unique_ptr<::ranvier::SpikeExchange> { return std::make_unique<Method>(); })

std::unique_ptr<SpikeExchange> make_exchange(const std::string& method);
// The methods a user may choose (dry_run is chosen by the kernel for a dry run).
std::vector<std::string> exchange_methods();

// Index of gid in the ascending list, which must contain it.
inline size_t index_in(const std::vector<uint32_t>& gids, uint32_t gid) {
  return size_t(std::lower_bound(gids.begin(), gids.end(), gid) - gids.begin());
}

}  // namespace ranvier
