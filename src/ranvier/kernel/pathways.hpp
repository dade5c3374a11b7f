// The exchange part of a rank's kernel: this rank's spikes to the ranks that need them, by a
// short-range pathway every cycle among the ranks that share areas and, with connections
// between areas, a long-range one every D cycles among all ranks (Lober et al. (2026)). Each
// pathway is a SpikeExchange method on its communicator; overlap.cpp hides either behind the
// update (overlap_exchange).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exchange/spike_exchange.hpp"
#include "kernel/config.hpp"
#include "kernel/thread_state.hpp"
#include "parallel/communicator.hpp"

namespace ranvier {

// What the pathways learn of the cycle and the network each time the kernel prepares.
struct PathwayPlan {
  int min_delay = 1, D = 1, min_delay_inter = 0;  // steps (Kernel::prepare_delays)
  bool long_range = false;                        // connections between areas
  bool areas = false;                             // area placement: short-range among area_color's ranks
  int area_color = 0;                             // ranks of the same color share areas
  uint32_t max_gid = 0;
  uint32_t lag_offsets = 1;  // LagCode::offsets: tics per step + 1 where cells spike off the grid
  const std::vector<ThreadState>* threads = nullptr;  // this rank's neurons and connection tables
  std::function<int(uint32_t)> rank_of;               // the rank of a neuron
};

class SpikePathways {
 public:
  // config and times are the kernel's: the exchange settings are read where they are used.
  SpikePathways(const KernelConfig& config, std::shared_ptr<Communicator> comm, PhaseTimes& times)
      : config_(config), comm_(std::move(comm)), times_(times) {}

  // The method of both pathways ("auto": local on one process, alltoall under MPI, dry_run in
  // a dry run); checked before anything changes.
  void set_method(const std::string& method, int multisend_phases);
  void set_persistent(bool on) { setup_.persistent = setup_long_.persistent = on; }
  // Communicators and routes for the cycle ahead (every rank together).
  void prepare(const PathwayPlan& plan);

  // The cycle, on the master thread. Steps in the first epoch of a cycle, 0 where the cycle
  // is not split (overlap.cpp).
  int epoch_split() const;
  // The first epoch's spikes go out without waiting (overlap_exchange).
  void start_epoch(const std::vector<Spike>& local, int64_t origin, int lag);
  // An exchange is under way while the cells update; hiding(): not yet seen complete.
  bool in_flight() const { return epoch_exchange_ == EpochExchange::in_flight || long_in_flight_; }
  bool hiding() const { return hidden_running_ || long_hidden_running_; }
  void progress();
  // The cycle's spikes (local) out and the spikes for this rank in: received() then holds
  // the short-range ones of the cycle, lumped() every D cycles the long-range ones.
  void end_cycle(const std::vector<Spike>& local, int64_t origin);
  // Spikes still on their way take the offsets' new units (the longest delay changed).
  void rescale_offsets(uint32_t from, uint32_t to);
  // Completes what is still under way: nothing stays in flight between Simulate calls.
  void finish();

  const std::vector<Spike>& received() const { return received_; }
  // Checkpoints: the spikes of the cycle's first epoch, received while the second was updated
  // (overlap_exchange; empty where the cycle has no such epoch behind it); the long-range spikes
  // this rank sent since the last global exchange, and those received that wait for delivery
  // (empty where none wait); and these put back (sorted here). A loaded run exchanges the first
  // epoch's spikes again with the second's, as a cycle that is not split does.
  const std::vector<Spike>& first_epoch() const { return epoch_received_; }
  const std::vector<Spike>& long_pending() const { return long_pending_; }
  const std::vector<Spike>& lumped_waiting() const {
    static const std::vector<Spike> none;
    return long_ready_ ? long_buffer_ : none;
  }
  void restore_long(std::vector<Spike> pending, std::vector<Spike> waiting);
  void restore_received(std::vector<Spike> spikes);
  bool lumped_ready() const { return long_ready_; }
  const std::vector<Spike>& lumped() const { return long_buffer_; }
  void lumped_delivered() { long_ready_ = false; }
  // One exchange per cycle serves both pathways (the conventional scheme).
  bool single_exchange() const { return single_exchange_; }
  bool two_pathways() const { return long_range_ && !single_exchange_; }

  // Spike counts and buffer log of both pathways together; exchanges done by each.
  ExchangeCounters counters() const;
  uint64_t short_cycles() const { return exchange_ ? exchange_->counters().cycles : 0; }
  uint64_t global_exchanges() const {
    return exchange_long_ && two_pathways() ? exchange_long_->counters().cycles : short_cycles();
  }

 private:
  void setup_pathway(ExchangeSetup& x, const PathwayPlan& plan, Communicator& comm, int steps, bool short_range,
                     bool long_range);
  void exchange(SpikeExchange& method, Communicator& comm, const std::vector<Spike>& local, int64_t origin,
                std::vector<Spike>& received);
  void sort_lumped();
  void finish_epoch_exchange();
  void start_long_exchange(int64_t origin);
  void finish_long_exchange();

  const KernelConfig& config_;
  std::shared_ptr<Communicator> comm_;  // all ranks
  PhaseTimes& times_;
  std::unique_ptr<SpikeExchange> exchange_, exchange_long_;  // short-range (every cycle), long-range
  ExchangeSetup setup_, setup_long_;
  std::shared_ptr<Communicator> short_comm_;         // the ranks of this rank's areas
  int min_delay_ = 1, D_ = 1, min_delay_inter_ = 0;  // of the last prepare
  bool long_range_ = false;
  bool single_exchange_ = true;
  std::vector<Spike> received_;      // short-range spikes of the last cycle, sorted, to be delivered
  std::vector<Spike> long_pending_;  // this rank's spikes since the last global exchange
  std::vector<Spike> long_buffer_;   // long-range spikes of the last lumped interval
  bool long_ready_ = false;          // long_buffer_ waits for the next cycle's delivery
  // overlap_exchange with areas: the long-range exchange of the last interval is under way
  // during the next cycle (long_overlap_), and times_.communicate_hidden_long runs until it is
  // seen complete.
  bool long_overlap_ = false, long_in_flight_ = false, long_hidden_running_ = false;
  // The exchange of the cycle's first epoch (overlap_exchange): none, under way while the
  // second epoch updates, or done (its spikes wait in epoch_received_ for the cycle's end).
  enum class EpochExchange { none, in_flight, done };
  EpochExchange epoch_exchange_ = EpochExchange::none;
  int epoch_split_ = 0;          // steps of the cycle in that first epoch
  bool hidden_running_ = false;  // times_.communicate_hidden runs until the exchange is seen complete
  std::vector<Spike> epoch_received_;
};

}  // namespace ranvier
