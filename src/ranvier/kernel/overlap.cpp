// Spike exchange overlapped with computation (overlap_exchange). Each cycle of min_delay steps
// is split into two epochs of about half the min delay, as in Arbor's epoch pipelining
// (Peyser (2017)): when the first epoch is updated, its spikes start on their way with a
// non-blocking collective; the master thread tests it for progress between the steps it
// updates in the second epoch, and the cycle's end completes it, exchanges the second
// epoch's spikes and merges both into the one sorted buffer that a conventional cycle
// delivers. Every delivery thus sees the same spikes in the same order as without overlap,
// so spikes, potentials and weights stay bit-identical; what is hidden is the first epoch's
// exchange. (Spikes of the second epoch are due early in the next cycle, and delivering them
// in a batch of their own would change the order of the sums in the ring buffers.)
//
// With areas the long-range exchange, once every D cycles, travels during the whole next
// cycle and its spikes are delivered at the start of the cycle after; D is one cycle shorter
// to leave room for that (Kernel::prepare_delays). Long-range input goes to rows of its own, folded
// in when due, so delivering it a cycle later changes no sum.
#include <algorithm>

#include "kernel/pathways.hpp"

namespace ranvier {

// Steps in the first epoch of a cycle, or 0 where the cycle is not split: overlap off, a
// min delay of one step, or a method without non-blocking collectives.
int SpikePathways::epoch_split() const {
  if (!config_.overlap_exchange || min_delay_ < 2 || !exchange_->overlaps()) return 0;
  return min_delay_ / 2;
}

// The master thread, at the end of the first epoch (lag steps into the cycle from origin):
// its spikes go out, without waiting.
void SpikePathways::start_epoch(const std::vector<Spike>& local, int64_t origin, int lag) {
  // A long-range exchange on the same communicator completes first: a round it still has to
  // start must come before this one's on every rank.
  if (short_comm_ == comm_) finish_long_exchange();
  if (two_pathways()) long_pending_.insert(long_pending_.end(), local.begin(), local.end());
  {
    ScopedTimer timer(short_comm_ == comm_ ? times_.communicate_global : times_.communicate_local);
    exchange_->start(local, origin);
    epoch_exchange_ = EpochExchange::in_flight;
    epoch_split_ = lag;
    hidden_running_ = !exchange_->progress();  // one process: done at once, nothing to hide
  }
  if (hidden_running_) times_.communicate_hidden.start();
}

void SpikePathways::progress() {
  if (hidden_running_ && exchange_->progress()) {
    times_.communicate_hidden.stop();
    hidden_running_ = false;
  }
  if (long_hidden_running_ && exchange_long_->progress()) {
    times_.communicate_hidden_long.stop();
    long_hidden_running_ = false;
  }
}

// Completes the first epoch's exchange; what remains of it now is exposed, not hidden.
void SpikePathways::finish_epoch_exchange() {
  if (epoch_exchange_ != EpochExchange::in_flight) return;
  if (hidden_running_) times_.communicate_hidden.stop();
  hidden_running_ = false;
  ScopedTimer timer(short_comm_ == comm_ ? times_.communicate_global : times_.communicate_local);
  exchange_->finish(epoch_received_);
  std::sort(epoch_received_.begin(), epoch_received_.end());
  epoch_exchange_ = EpochExchange::done;
}

// The master thread, at the end of a long-range interval (its last cycle starts at origin):
// its spikes go out, without waiting.
void SpikePathways::start_long_exchange(int64_t origin) {
  {
    ScopedTimer timer(times_.communicate_global);
    exchange_long_->start(long_pending_, origin - int64_t(D_ - 1) * min_delay_);
    long_pending_.clear();
    long_in_flight_ = true;
    long_hidden_running_ = !exchange_long_->progress();
  }
  if (long_hidden_running_) times_.communicate_hidden_long.start();
}

// Completes the long-range exchange a cycle after it started (or when a Simulate call ends);
// its spikes are delivered at the next cycle's start.
void SpikePathways::finish_long_exchange() {
  if (!long_in_flight_) return;
  if (long_hidden_running_) times_.communicate_hidden_long.stop();
  long_hidden_running_ = false;
  ScopedTimer timer(times_.communicate_global);
  exchange_long_->finish(long_buffer_);
  exchange_long_->check_conservation();
  long_in_flight_ = false;
  sort_lumped();
}

void SpikePathways::finish() {
  finish_epoch_exchange();
  finish_long_exchange();
}

}  // namespace ranvier
