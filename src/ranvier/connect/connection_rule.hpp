// Connection rules in a registry: a rule is one file in connect/rules/ that registers a
// function making the incoming connections of one thread's targets, plus the names of the
// rule's own parameters (Python learns them from here). Every thread walks only its own
// targets (Ippen et al. 2017, construction over local targets), and every random choice is
// keyed by the connection's owner, so the network does not depend on the thread count.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "connect/connection_sink.hpp"
#include "core/registry.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

// What a rule sees while it runs on one thread.
class RuleContext {
 public:
  RuleContext(LocalNetwork& k, int thread, const ConnectRequest& r, uint32_t call, ConnectionSink& sink);

  const ConnectRequest& request;
  ConnectionSink& sink;
  const uint32_t seed, call;
  // Positions in request.targets of the neurons that live on this thread, ascending.
  const std::vector<uint32_t> mine;

  uint32_t input(uint32_t gid) const;   // input column of a neuron of this thread (at the receptor port)
  bool local(uint32_t gid) const;       // does the neuron live on this thread?
  Stream stream(Purpose purpose, uint32_t owner) const { return Stream(seed, purpose, call, owner); }
  // `count` positions in request.sources for the target at position p, drawn from the
  // target's stream without autapses or multapses where the request forbids them.
  const std::vector<uint32_t>& draw_sources(size_t p, uint64_t count);

 private:
  LocalNetwork& k_;
  int thread_;
  bool current_;  // the sources send currents
  std::vector<uint8_t> taken_;
  std::vector<uint32_t> chosen_;
};

struct ConnectionRule {
  std::vector<std::string> parameters;  // the rule's own conn_spec keys besides "rule"
  void (*connect)(RuleContext& c);
};
using ConnectionRules = Registry<ConnectionRule>;

// NEST's spatial rules (masks, spatial p, weights and delays) are chosen by a request that
// carries a SpatialConnect, not by name: they share the names of the rules above.
const ConnectionRule& spatial_rule();

#define RANVIER_REGISTER_CONNECTION_RULE(name, ...) \
  [[maybe_unused]] const bool name##_registered = ::ranvier::ConnectionRules::instance().add(#name, {__VA_ARGS__})

}  // namespace ranvier
