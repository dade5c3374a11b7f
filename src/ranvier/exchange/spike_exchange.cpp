#include "exchange/spike_exchange.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/timers.hpp"

namespace ranvier {

std::vector<std::string> exchange_methods() {
  std::vector<std::string> names = ExchangeMethods::instance().names();
  names.erase(std::remove(names.begin(), names.end(), "dry_run"), names.end());
  return names;
}

std::unique_ptr<SpikeExchange> make_exchange(const std::string& method) {
  const auto* make = ExchangeMethods::instance().find(method);
  if (!make) throw bad_value("spike_exchange", method, "one of the methods this build has");
  return (*make)();
}

void SpikeExchange::start(const std::vector<Spike>&, int64_t) {
  throw std::logic_error(std::string(name()) + " exchange cannot overlap computation");
}

void SpikeExchange::finish(std::vector<Spike>&) {
  throw std::logic_error(std::string(name()) + " exchange cannot overlap computation");
}

void SpikeExchange::count_exchanged(int64_t sent, int64_t received) {
  counters_.sent += uint64_t(sent);
  counters_.received += uint64_t(received);
  unchecked_sent_ += sent;
  unchecked_received_ += received;
}

void SpikeExchange::check_conservation() {
  ++counters_.cycles;
  std::vector<int64_t> totals{unchecked_sent_, unchecked_received_};
  unchecked_sent_ = unchecked_received_ = 0;
  setup_->comm->allreduce(totals, ReduceOp::sum);
  if (totals[0] != totals[1])
    throw KernelStateError(std::string(name()) + " exchange lost spikes: " + std::to_string(totals[0]) +
                           " entries sent, " + std::to_string(totals[1]) + " received");
}

namespace {

class LocalExchange final : public SpikeExchange {
 public:
  const char* name() const override { return "local"; }
  bool overlaps() const override { return true; }  // trivially: start() hands the spikes over
  void exchange(const std::vector<Spike>& local, int64_t origin, std::vector<Spike>& received) override {
    start(local, origin);
    finish(received);
    check_conservation();
  }
  void start(const std::vector<Spike>& local, int64_t) override { started_ = local; }
  void finish(std::vector<Spike>& received) override {
    received.swap(started_);
    started_.clear();
    count_exchanged(int64_t(received.size()), int64_t(received.size()));
  }

 private:
  std::vector<Spike> started_;
};

// Rank 0 of a pretended M-rank run: the other ranks' spikes are this rank's spikes moved to
// the neurons at the same place on each other rank (gid + r, r < M, under round-robin
// placement), as Arbor's dry-run context does; of those, rank 0 receives the ones with targets
// here, as a real rank of a directed exchange would (a source's copies are the table sources
// between its gid and the next of rank 0's).
class DryRunExchange final : public SpikeExchange {
 public:
  const char* name() const override { return "dry_run"; }
  void exchange(const std::vector<Spike>& local, int64_t, std::vector<Spike>& received) override {
    synthesis_.start();
    received = local;
    const uint64_t ranks = uint64_t(setup_->dry_run_ranks);
    for (const Spike& s : local) {
      copies_.clear();
      for (const std::vector<uint32_t>* sources : setup_->table_sources)
        for (auto it = std::upper_bound(sources->begin(), sources->end(), s.gid);
             it != sources->end() && *it < s.gid + ranks; ++it)
          copies_.push_back(*it);
      std::sort(copies_.begin(), copies_.end());
      copies_.erase(std::unique(copies_.begin(), copies_.end()), copies_.end());
      for (const uint32_t gid : copies_) received.push_back({gid, s.offset, s.stamp});
    }
    synthesis_.stop();
    counters_.synthesis_s = synthesis_.seconds();
    counters_.sent += local.size();
    counters_.received += received.size();
    ++counters_.cycles;
  }

 private:
  std::vector<uint32_t> copies_;  // one spike's, reused
  Stopwatch synthesis_;
};

}  // namespace

RANVIER_REGISTER_EXCHANGE(local, LocalExchange);
RANVIER_REGISTER_EXCHANGE(dry_run, DryRunExchange);

}  // namespace ranvier
