// Prints a digest of the spikes of a network that runs every kind of neuron loop the compiler
// may vectorise differently (exact integration, RKF45, Hodgkin-Huxley, Poisson input, STDP),
// on two threads. Built once portable and once with -march=native; the two must print the same.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ranvier/network.hpp"

int main() {
  ranvier::Network net({.threads = 2, .resolution = 0.1, .seed = 7});
  const auto exc = net.create("iaf_psc_alpha", 400, {{"I_e", 200.0}});
  const auto inh = net.create("iaf_psc_exp", 100);
  const auto adaptive = net.create("aeif_cond_alpha", 40);
  const auto hh = net.create("hh_psc_alpha", 20);
  const auto noise = net.create("poisson_generator", 1, {{"rate", 12000.0}});
  const ranvier::Rule indegree{.name = "fixed_indegree", .parameters = {{"indegree", 40}}};
  for (const auto& targets : {exc, inh, adaptive, hh}) {
    net.connect(exc, targets, indegree,
                {.model = "stdp_synapse",
                 .weight = ranvier::Value::uniform(10.0, 30.0),
                 .delay = ranvier::Value::uniform(1.0, 3.0)});
    net.connect(inh, targets, {.name = "fixed_indegree", .parameters = {{"indegree", 10}}},
                {.weight = -60.0, .delay = 1.5});
    net.connect(noise, targets, {}, {.weight = 15.0, .delay = 1.0});
  }
  const uint32_t recorder = net.record_spikes(ranvier::Nodes{exc.first, hh.first + hh.count - exc.first});
  net.simulate(300.0);
  const ranvier::SpikeEvents spikes = net.spikes(recorder);
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over senders and time bits, in recorded order
  const auto mix = [&](const void* data, size_t n) {
    for (size_t i = 0; i < n; ++i) hash = (hash ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  };
  for (size_t k = 0; k < spikes.times.size(); ++k) {
    mix(&spikes.senders[k], sizeof(uint32_t));
    mix(&spikes.times[k], sizeof(double));
  }
  std::printf("%zu spikes, digest %016llx\n", spikes.times.size(), static_cast<unsigned long long>(hash));
  return spikes.times.empty() ? 1 : 0;
}
