// Connection rules in a registry: a rule is one file in connect/rules/ that registers a
// function making the incoming connections of one thread's targets, the rule's own parameters
// (name, kind, default) and its checks over a whole call. The kernel checks a request's
// parameters against them on every rank before any connection is made; Python and the public
// API pass a conn_spec's parameters on as a name -> value map and learn the rules from here.
// Every thread walks only its own targets (Ippen et al. 2017, construction over local
// targets), and every random choice is keyed by the connection's owner, so the network does
// not depend on the thread count.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "connect/connection_sink.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

// A parameter a rule declares. Its kind says which values it takes; the kernel checks them
// with the same message for every rule ("p must be in [0, 1], got p = 2").
struct RuleParameter {
  enum class Kind {
    count,             // a non-negative integer (a degree, a number of connections)
    count_per_target,  // a count, or an array of one count per target
    probability,       // a number in [0, 1]
    mean,              // a number >= 0 (an expected count)
  };
  std::string name;
  Kind kind;
  std::optional<RuleValue> default_value = std::nullopt;  // none: the conn_spec must give it
};

// A request with the rule's parameters checked and their defaults filled in: what a rule's
// checks read, and what its connect function reads through RuleContext.
class RuleCall {
 public:
  RuleCall(const ConnectRequest& request, RuleParameters parameters)
      : request(request), parameters(std::move(parameters)) {}
  const ConnectRequest& request;
  const RuleParameters parameters;

  uint64_t count(const std::string& name) const;  // a count
  double real(const std::string& name) const;     // a probability or a mean
  // A count_per_target given as an array: one count per target; null for one count.
  const std::vector<int64_t>* per_target(const std::string& name) const;
  // The nodes that are both sources and targets (the partners autapses exclude).
  uint64_t shared() const;
};

// "name = value" of a rule parameter's value, for errors.
std::string text_of(const RuleValue& value);
// "(10,)", "(10, 5)": a shape as Python writes it.
std::string shape_text(const std::vector<uint64_t>& shape);

// What a rule sees while it runs on one thread.
class RuleContext {
 public:
  RuleContext(const LocalNetwork& k, int thread, const RuleCall& rule_call, uint32_t call, ConnectionSink& sink);

  const ConnectRequest& request;
  const RuleCall& params;  // the checked parameters: params.count("indegree"), params.real("p")
  ConnectionSink& sink;
  const uint32_t seed, call;
  // Positions in request.targets of the neurons that live on this thread, ascending.
  const std::vector<uint32_t> mine;

  uint32_t input(uint32_t gid) const;  // input column of a neuron of this thread (at the receptor port)
  bool local(uint32_t gid) const;      // does the neuron live on this thread?
  Stream stream(Purpose purpose, uint32_t owner) const { return Stream(seed, purpose, call, owner); }
  // `count` positions in request.sources for the target at position p, drawn from the
  // target's stream without autapses or multapses where the request forbids them.
  const std::vector<uint32_t>& draw_sources(size_t p, uint64_t count);

 private:
  const LocalNetwork& k_;
  int thread_;
  bool current_;  // the sources send currents
  std::vector<uint8_t> taken_;
  std::vector<uint32_t> chosen_;
};

struct ConnectionRule {
  std::vector<RuleParameter> parameters;  // the rule's own conn_spec keys besides rule and the autapse/multapse flags
  void (*connect)(RuleContext& c) = nullptr;
  // Checks over the whole call beyond each parameter's kind (a degree no partners can fill);
  // throws BadParameterError naming the parameter and its value. Null: none.
  void (*check)(const RuleCall& call) = nullptr;
  // The shape weight and delay arrays must have (one value per connection, in the order the
  // rule's sink.add calls index them); nullopt: the rule takes no arrays. Null: none.
  std::optional<std::vector<uint64_t>> (*array_shape)(const RuleCall& call) = nullptr;
  // The (source, target) pairs Disconnect removes one connection of each, in the order it
  // looks for them. Null: Disconnect refuses the rule.
  std::vector<std::pair<uint32_t, uint32_t>> (*disconnect_pairs)(const RuleCall& call) = nullptr;
  // Each source's connections are drawn on their own (or none are drawn): a pre of several
  // kinds (neurons, device models) may connect as one call per kind (Python splits it).
  bool per_source = false;
  // It connects each pair both ways itself: NEST's conn_spec must say make_symmetric.
  bool both_ways = false;
};
using ConnectionRules = Registry<ConnectionRule>;

// The rule's parameters of a request, checked against its declaration (unknown names, missing
// required ones, each value's kind), the defaults filled in, then the rule's own check and the
// shape of weight and delay arrays. Raises on every rank alike.
RuleParameters check_rule_parameters(const std::string& name, const ConnectionRule& rule, const ConnectRequest& r);

// Disconnect's pairs for a request by rule: the rule found in the registry and its parameters
// checked as Connect checks them.
std::vector<std::pair<uint32_t, uint32_t>> disconnect_pairs(const ConnectRequest& r);

// NEST's spatial rules (masks, spatial p, weights and delays) are chosen by a request that
// carries a SpatialConnect, not by name: they share the names of the rules above.
const ConnectionRule& spatial_rule();

// RANVIER_REGISTER_CONNECTION_RULE(my_rule, .parameters = {{"n", RuleParameter::Kind::count, int64_t(1)}},
//                                  .connect = &my_rule, .check = &check, .array_shape = &shape);
#define RANVIER_REGISTER_CONNECTION_RULE(name, ...) \
  [[maybe_unused]] const bool name##_registered =   \
      ::ranvier::ConnectionRules::instance().add(#name, ::ranvier::ConnectionRule{__VA_ARGS__})

}  // namespace ranvier
