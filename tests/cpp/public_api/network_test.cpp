// The public C++ API, used as a program outside the library would: only include/ is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ranvier/network.hpp"

namespace {

// A small Brunel network (Brunel 2000, model A, as NEST's brunel_alpha example at a small scale).
ranvier::SpikeEvents brunel(int threads) {
  ranvier::Network net({.threads = threads, .resolution = 0.1, .seed = 42});
  const std::map<std::string, double> neuron{{"tau_m", 20.0}, {"V_th", 20.0}, {"E_L", 0.0},  {"V_reset", 0.0},
                                             {"V_m", 0.0},    {"t_ref", 2.0}, {"C_m", 250.0}};
  const auto exc = net.create("iaf_psc_delta", 800, neuron);
  const auto inh = net.create("iaf_psc_delta", 200, neuron);
  const auto noise = net.create("poisson_generator", 1, {{"rate", 20000.0}});
  const ranvier::Nodes all{exc.first, exc.count + inh.count};
  net.connect(noise, all, {}, {.weight = 0.1, .delay = 1.5});
  net.connect(exc, all, {.name = "fixed_indegree", .parameters = {{"indegree", 80}}}, {.weight = 0.1, .delay = 1.5});
  net.connect(inh, all, {.name = "fixed_indegree", .parameters = {{"indegree", 20}}}, {.weight = -0.5, .delay = 1.5});
  const uint32_t recorder = net.record_spikes(exc);
  net.simulate(200.0);
  EXPECT_DOUBLE_EQ(net.time(), 200.0);
  return net.spikes(recorder);
}

TEST(PublicApi, BuildsSimulatesAndRecordsTheSameSpikesForAnyThreads) {
  const ranvier::SpikeEvents one = brunel(1);
  const double rate = double(one.senders.size()) / 800.0 / 0.2;
  EXPECT_GT(rate, 1.0);  // active, not runaway
  EXPECT_LT(rate, 200.0);
  EXPECT_TRUE(std::is_sorted(one.times.begin(), one.times.end()));
  const ranvier::SpikeEvents two = brunel(2);
  EXPECT_EQ(one.senders, two.senders);
  EXPECT_EQ(one.times, two.times);
}

TEST(PublicApi, ErrorsNameTheParameterAndLeaveTheNetworkUsable) {
  ranvier::Network net;
  EXPECT_THROW(net.create("iaf_psc_nonsense", 3), ranvier::Error);
  try {
    net.create("iaf_psc_alpha", 3, {{"C_m", -1.0}});
    FAIL() << "a negative C_m was accepted";
  } catch (const ranvier::Error& e) {
    EXPECT_STREQ(e.kind(), "BadParameterError");
    EXPECT_NE(std::string(e.what()).find("C_m"), std::string::npos);
  }
  const auto cells = net.create("iaf_psc_alpha", 3, {{"I_e", 500.0}});
  EXPECT_EQ(cells.first, 1u);  // the rejected call left no nodes behind
  EXPECT_THROW(net.connect(cells, cells, {}, {.model = "no_such_synapse"}), ranvier::Error);
  const uint32_t recorder = net.record_spikes(cells);
  net.simulate(100.0);
  EXPECT_FALSE(net.spikes(recorder).senders.empty());
  EXPECT_NE(std::find(ranvier::Network::neuron_models().begin(), ranvier::Network::neuron_models().end(), "cable_cell"),
            ranvier::Network::neuron_models().end());
}

}  // namespace
