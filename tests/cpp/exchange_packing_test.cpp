// Each registered exchange method's packing on the one-process communicator: the spikes a
// rank hands in come back unchanged, through cycles of different sizes (one a burst beyond
// every method's first block, so the overflow round or the grown window carries it), with
// the counters each method keeps. With one rank, alltoall and multisend send nothing to
// other ranks: they return the rank's own spikes, and multisend's message words are tested
// by a loop back through the communicator below.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>

#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

struct Case {
  const char* method;
  int min_delay;         // 20: one-byte lags in allgather's compressed entries; 300: two bytes
  int phases = 1;        // multisend
  int subintervals = 1;  // multisend: 2 lets it overlap
  bool persistent = false;
  bool overlapped = false;  // start / progress / finish instead of exchange
  uint64_t repeats = 0;     // rounds redone after the burst
  size_t resizes = 0;       // entries in the resize log after the burst
  uint32_t offsets = 1;     // LagCode::offsets: 101 sends off-grid spikes (100 units per step)
};

std::string name_of(const Case& c) {
  return std::string(c.method) + "_delay" + std::to_string(c.min_delay) + "_phases" + std::to_string(c.phases) +
         (c.subintervals == 2 ? "_halves" : "") + (c.persistent ? "_persistent" : "") +
         (c.overlapped ? "_overlapped" : "") + (c.offsets > 1 ? "_offgrid" : "");
}
std::string case_name(const testing::TestParamInfo<Case>& info) { return name_of(info.param); }
void PrintTo(const Case& c, std::ostream* out) { *out << name_of(c); }  // in failure messages

// One rank with 300 neurons at sparse gids (allgather needs two bytes per index) and no
// targets on other ranks.
ExchangeSetup one_rank(Communicator* comm, const Case& c) {
  ExchangeSetup s;
  s.comm = comm;
  s.min_delay = c.min_delay;
  for (uint32_t i = 0; i < 300; ++i) s.local_gids.push_back(5 + 3 * i);
  s.rank_gids = {s.local_gids};
  s.target_offsets.assign(s.local_gids.size() + 1, 0);
  s.multisend_phases = c.phases;
  s.multisend_subintervals = c.subintervals;
  s.persistent = c.persistent;
  s.lag_code.offsets = c.offsets;
  return s;
}

// n spikes of the cycle that starts at `origin`, over all its steps (several per neuron
// when n > 300) and, off the grid, all offsets, sorted by (gid, step) as the kernel hands them over.
std::vector<Spike> spikes(const ExchangeSetup& s, int64_t origin, size_t n) {
  std::vector<Spike> out;
  for (size_t k = 0; k < n; ++k)
    out.push_back({s.local_gids[(k * 37) % s.local_gids.size()], uint32_t((k * 7) % s.lag_code.offsets),
                   origin + 1 + int64_t((k * 13 + k / 300) % size_t(s.min_delay))});
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Spike> exchanged(SpikeExchange& method, const Case& c, const std::vector<Spike>& local, int64_t origin) {
  std::vector<Spike> received;
  if (c.overlapped) {
    method.start(local, origin);
    method.progress();
    method.finish(received);
  } else {
    method.exchange(local, origin, received);
  }
  std::sort(received.begin(), received.end());
  return received;
}

void expect_same(const std::vector<Spike>& got, const std::vector<Spike>& want, size_t cycle) {
  ASSERT_EQ(got.size(), want.size()) << "cycle " << cycle;
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(got[k].gid, want[k].gid) << "cycle " << cycle << ", spike " << k;
    EXPECT_EQ(got[k].stamp, want[k].stamp) << "cycle " << cycle << ", spike " << k;
    EXPECT_EQ(got[k].offset, want[k].offset) << "cycle " << cycle << ", spike " << k;
  }
}

class ExchangePacking : public testing::TestWithParam<Case> {};

TEST_P(ExchangePacking, SpikesComeBackUnchangedThroughABurst) {
  const Case& c = GetParam();
  auto comm = single_process_communicator();
  const ExchangeSetup setup = one_rank(comm.get(), c);
  auto method = make_exchange(c.method);
  method->prepare(setup);
  ASSERT_TRUE(method->overlaps() || !c.overlapped) << c.method << " cannot overlap";
  const std::vector<size_t> sizes = {5, 0, 700, 30, 1};  // 700: beyond every first block
  uint64_t total = 0;
  for (size_t cycle = 0; cycle < sizes.size(); ++cycle) {
    const int64_t origin = 1'000'000'000'000 + int64_t(cycle) * c.min_delay;  // stamps beyond 32 bits
    const std::vector<Spike> local = spikes(setup, origin, sizes[cycle]);
    expect_same(exchanged(*method, c, local, origin), local, cycle);
    total += local.size();
  }
  if (c.overlapped) method->check_conservation();  // the kernel leaves it to the next exchange
  const ExchangeCounters& n = method->counters();
  EXPECT_EQ(n.sent, total);
  EXPECT_EQ(n.received, total);
  EXPECT_EQ(n.repeats, c.repeats);
  EXPECT_EQ(n.resize_log.size(), c.resizes);
}

INSTANTIATE_TEST_SUITE_P(
    Methods, ExchangePacking,
    testing::Values(
        // allgather's fixed block holds 16 spikes: the burst goes in the overflow round, once
        Case{"allgather", 20, 1, 1, false, false, 1, 1}, Case{"allgather", 300, 1, 1, false, false, 1, 1},
        Case{"allgather", 20, 1, 1, true, false, 1, 1}, Case{"allgather", 300, 1, 1, true, true, 1, 1},
        // one rank's alltoall sends no chunk to another rank: nothing can overflow
        Case{"alltoall", 20, 1, 1, false, false, 0, 0}, Case{"alltoall", 300, 1, 1, true, true, 0, 0},
        Case{"multisend", 20, 1, 1}, Case{"multisend", 300, 2, 1}, Case{"multisend", 20, 1, 2, false, true},
        // rma's blocks hold 64 spikes: the burst gets a new window, not a second round
        Case{"rma", 20, 1, 1, false, false, 0, 1}, Case{"rma", 300, 1, 1, false, false, 0, 1},
        // off the grid: offsets folded into the lags (allgather's lags take two bytes)
        Case{"allgather", 20, 1, 1, false, false, 1, 1, 101}, Case{"alltoall", 20, 1, 1, false, false, 0, 0, 101},
        Case{"multisend", 20, 2, 1, false, false, 0, 0, 101}, Case{"rma", 20, 1, 1, false, false, 0, 1, 101}),
    case_name);

TEST(ExchangePacking, EveryRegisteredMethodIsCovered) {
  std::vector<std::string> covered = {"allgather", "alltoall", "local", "multisend", "rma"};
  std::vector<std::string> methods = exchange_methods();
  std::sort(methods.begin(), methods.end());
  EXPECT_EQ(methods, covered) << "a new method needs its cases above";
}

// The one-process communicator delivers messages to itself: a neuron with targets on "rank
// 0" makes multisend send each spike there as (gid, lag) words, which come back as the same
// spike beside the rank's own copy, and conservation holds (the kernel never lists a rank's
// own rank as a target; this only takes the words through the communicator and back).
TEST(ExchangePacking, MultisendWordsRoundTripThroughTheCommunicator) {
  for (int phases : {1, 2}) {
    const Case c{"multisend", 20, phases};
    auto comm = single_process_communicator();
    ExchangeSetup setup = one_rank(comm.get(), c);
    for (size_t i = 0; i < setup.local_gids.size(); ++i) setup.target_offsets[i + 1] = i + 1;
    setup.target_ranks.assign(setup.local_gids.size(), 0);
    auto method = make_exchange("multisend");
    method->prepare(setup);
    const int64_t origin = 4'000'000'000;
    const std::vector<Spike> local = spikes(setup, origin, 450);
    std::vector<Spike> twice = local;
    twice.insert(twice.end(), local.begin(), local.end());
    std::sort(twice.begin(), twice.end());
    expect_same(exchanged(*method, c, local, origin), twice, 0);
    EXPECT_EQ(method->counters().sent, 900u);
    EXPECT_EQ(method->counters().received, 900u);
  }
}

}  // namespace
}  // namespace ranvier
