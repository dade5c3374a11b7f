// The pathways' method, their routes (who needs which of this rank's spikes) and the exchange
// at each cycle's end.
#include "kernel/pathways.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/errors.hpp"

namespace ranvier {

void SpikePathways::set_method(const std::string& method, int multisend_phases) {
  std::string chosen = method;
  if (method == "auto") chosen = config_.dry_run > 0 ? "dry_run" : comm_->size() > 1 ? "alltoall" : "local";
  if (config_.dry_run > 0 && chosen != "dry_run")
    throw BadParameterError("a dry run exchanges synthetic spikes; spike_exchange = " + method +
                            " needs a real MPI run");
  if (comm_->size() > 1 && chosen == "local") throw BadParameterError("spike_exchange = local needs a single process");
  if (multisend_phases != 1 && multisend_phases != 2)
    throw BadParameterError("multisend_phases must be 1 or 2, got multisend_phases = " +
                            std::to_string(multisend_phases));
  auto next = make_exchange(chosen);
  exchange_long_ = make_exchange(chosen);
  exchange_ = std::move(next);
}

void SpikePathways::prepare(const PathwayPlan& plan) {
  min_delay_ = plan.min_delay, D_ = plan.D, min_delay_inter_ = plan.min_delay_inter;
  long_range_ = plan.long_range;
  // Short-range spikes stay among the ranks sharing areas; when that is all ranks and D = 1,
  // one exchange per cycle serves both pathways (the conventional scheme).
  short_comm_ = plan.areas && config_.dry_run == 0 ? comm_->split(plan.area_color) : comm_;
  single_exchange_ = !long_range_ || (D_ == 1 && short_comm_->size() == comm_->size());
  setup_pathway(setup_, plan, *short_comm_, min_delay_, true, single_exchange_);
  exchange_->prepare(setup_);
  if (!single_exchange_) {
    setup_pathway(setup_long_, plan, *comm_, D_ * min_delay_, false, true);
    exchange_long_->prepare(setup_long_);
  }
  // The long-range exchange overlaps where its D left the room (Kernel::prepare_delays).
  long_overlap_ = config_.overlap_exchange && !single_exchange_ && exchange_long_->overlaps() &&
                  (D_ + 1) * min_delay_ <= min_delay_inter_;
}

// Which ranks need which of this rank's spikes, for the sources of the given tables:
// every rank tells each source's owner (one all-to-all round), in ranks of `comm`.
void SpikePathways::setup_pathway(ExchangeSetup& x, const PathwayPlan& plan, Communicator& comm, int steps,
                                  bool short_range, bool long_range) {
  const int rank = comm_->rank();
  x = ExchangeSetup{};
  x.comm = &comm;
  x.min_delay = steps;
  x.lag_code.offsets = plan.lag_offsets;
  if (uint64_t(steps) * plan.lag_offsets > UINT32_MAX)
    throw KernelStateError("off-grid spikes over " + std::to_string(steps) +
                           " steps do not fit the exchange's 32 bits");
  x.multisend_phases = config_.multisend_phases;
  x.multisend_subintervals = config_.multisend_subintervals;
  x.persistent = config_.persistent_exchange;
  x.dry_run_ranks = config_.dry_run;
  x.max_gid = plan.max_gid;
  if (config_.dry_run > 0)
    for (const ThreadState& ts : *plan.threads)
      for (const auto* tables : {&ts.tables, &ts.long_tables})
        if (tables == &ts.tables ? short_range : long_range)
          for (const ConnectionTable& table : *tables)
            if (table.size()) x.table_sources.push_back(&table.sources());
  for (const ThreadState& ts : *plan.threads)
    x.local_gids.insert(x.local_gids.end(), ts.lid_gid.begin(), ts.lid_gid.end());
  std::sort(x.local_gids.begin(), x.local_gids.end());
  const int m = comm.size();
  // world rank -> rank in comm
  std::vector<uint8_t> me;
  append_bytes(me, &rank, 1);
  std::vector<size_t> counts;
  const std::vector<int> members = from_bytes<int>(comm.allgatherv(me, counts).data(), size_t(m) * sizeof(int));
  std::map<int, int> rank_in_comm;
  for (int r = 0; r < m; ++r) rank_in_comm[members[size_t(r)]] = r;
  if (exchange_->directed()) {
    std::vector<uint32_t> sources;
    for (const ThreadState& ts : *plan.threads) {
      if (short_range)
        for (const ConnectionTable& table : ts.tables)
          sources.insert(sources.end(), table.sources().begin(), table.sources().end());
      if (long_range)
        for (const ConnectionTable& table : ts.long_tables)
          sources.insert(sources.end(), table.sources().begin(), table.sources().end());
    }
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    std::vector<std::vector<uint8_t>> send(static_cast<size_t>(m));
    for (uint32_t s : sources) {
      const int owner = plan.rank_of(s);
      const auto it = rank_in_comm.find(owner);
      if (owner != rank && it != rank_in_comm.end()) append_bytes(send[size_t(it->second)], &s, 1);
    }
    const auto received = comm.alltoallv(send);
    std::vector<std::vector<int32_t>> wanted_by(x.local_gids.size());
    for (int r = 0; r < m; ++r)
      for (uint32_t gid : from_bytes<uint32_t>(received[size_t(r)].data(), received[size_t(r)].size()))
        wanted_by[index_in(x.local_gids, gid)].push_back(r);
    x.target_offsets.assign(1, 0);
    for (const auto& ranks : wanted_by) {
      x.target_ranks.insert(x.target_ranks.end(), ranks.begin(), ranks.end());
      x.target_offsets.push_back(x.target_ranks.size());
    }
  }
  if (exchange_->needs_rank_gids()) {
    std::vector<uint8_t> mine;
    append_bytes(mine, x.local_gids.data(), x.local_gids.size());
    const std::vector<uint8_t> all = comm.allgatherv(mine, counts);
    size_t offset = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      x.rank_gids.push_back(from_bytes<uint32_t>(all.data() + offset, counts[r]));
      offset += counts[r];
    }
  }
}

void SpikePathways::exchange(SpikeExchange& method, Communicator& comm, const std::vector<Spike>& local, int64_t origin,
                             std::vector<Spike>& received) {
  const bool global = &comm == comm_.get();
  if (comm.size() > 1 && config_.sync_barrier) {  // Lober et al. (2026) and Hines et al. (2011) measure waiting so
    ScopedTimer timer(global ? times_.synchronize_global : times_.synchronize_local);
    comm.barrier();
  }
  ScopedTimer timer(global ? times_.communicate_global : times_.communicate_local);
  method.exchange(local, origin, received);
  std::sort(received.begin(), received.end());  // (gid, stamp): the delivery order
}

// The end of a cycle: its spikes exchanged with the ranks that need them; long-range spikes
// wait for the global exchange every D cycles.
void SpikePathways::restore_received(std::vector<Spike> spikes) {
  std::sort(spikes.begin(), spikes.end());
  received_ = std::move(spikes);
}

void SpikePathways::restore_long(std::vector<Spike> pending, std::vector<Spike> waiting) {
  long_pending_ = std::move(pending);
  long_buffer_ = std::move(waiting);
  long_ready_ = false;
  if (!long_buffer_.empty()) sort_lumped();
}

void SpikePathways::rescale_offsets(uint32_t from, uint32_t to) {
  for (auto* spikes : {&received_, &long_pending_, &long_buffer_, &epoch_received_})
    for (Spike& s : *spikes) s.offset = uint32_t(std::llround(double(s.offset) * double(to) / double(from)));
}

void SpikePathways::end_cycle(const std::vector<Spike>& local, int64_t origin) {
  // The last interval's long-range exchange, under way during this cycle (overlap), completes
  // before any other collective starts, so every rank issues its rounds in the same order.
  finish_long_exchange();
  if (epoch_exchange_ == EpochExchange::none) {
    exchange(*exchange_, *short_comm_, local, origin, received_);
  } else {  // overlap_exchange: the second epoch's spikes join the first's (both sorted)
    finish_epoch_exchange();
    exchange(*exchange_, *short_comm_, local, origin + epoch_split_, received_);
    const size_t second = received_.size();
    received_.insert(received_.end(), epoch_received_.begin(), epoch_received_.end());
    std::inplace_merge(received_.begin(), received_.begin() + long(second), received_.end());
    epoch_received_.clear();
    epoch_exchange_ = EpochExchange::none;
  }
  if (!two_pathways()) return;
  long_pending_.insert(long_pending_.end(), local.begin(), local.end());
  const int64_t cycle = origin / min_delay_;
  if ((cycle + 1) % D_ != 0) return;
  if (long_overlap_) {
    start_long_exchange(origin);
    return;
  }
  exchange(*exchange_long_, *comm_, long_pending_, origin - int64_t(D_ - 1) * min_delay_, long_buffer_);
  long_pending_.clear();
  ScopedTimer timer(times_.communicate_global);
  sort_lumped();
}

// The long-range spikes into (cycle, gid, stamp) order for delivery, to be delivered at the
// next cycle's start.
void SpikePathways::sort_lumped() {
  std::sort(long_buffer_.begin(), long_buffer_.end(), [this](const Spike& a, const Spike& b) {
    const int64_t ca = (a.stamp - 1) / min_delay_, cb = (b.stamp - 1) / min_delay_;
    return ca != cb ? ca < cb : a < b;
  });
  long_ready_ = true;
}

ExchangeCounters SpikePathways::counters() const {
  ExchangeCounters c;
  for (const SpikeExchange* e : {exchange_.get(), exchange_long_.get()}) {
    if (!e) continue;
    c.sent += e->counters().sent, c.received += e->counters().received, c.repeats += e->counters().repeats;
    c.cycles += e->counters().cycles, c.synthesis_s += e->counters().synthesis_s;
    c.resize_log.insert(c.resize_log.end(), e->counters().resize_log.begin(), e->counters().resize_log.end());
  }
  return c;
}

}  // namespace ranvier
