// Ranvier's C++ API: build a network of point neurons, cable cells and devices, simulate it and
// read its spikes from a C++ program, without Python. This header is the public boundary: the
// kernel's own headers (src/ranvier/) are private to the library and may change.
//
//   ranvier::Network net({.threads = 2, .resolution = 0.1, .seed = 42});
//   auto exc = net.create("iaf_psc_alpha", 800, {{"I_e", 376.0}});
//   net.connect(exc, exc, {.name = "fixed_indegree", .parameters = {{"indegree", 80}}}, {.weight = 20.0, .delay
//   = 1.5}); auto recorder = net.record_spikes(exc); net.simulate(1000.0); auto spikes = net.spikes(recorder);
//
// Models, parameters, defaults and units are NEST's (the same as the Python API's). Errors
// throw ranvier::Error (ranvier/error.hpp) naming the parameter and its value.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ranvier/error.hpp"
#include "ranvier/rule_parameters.hpp"

namespace ranvier {

class Kernel;

struct Settings {
  int threads = 1;
  double resolution = 0.1;  // ms
  uint32_t seed = 12345;
};

// Consecutive node ids, as one create() call returns them.
struct Nodes {
  uint32_t first = 0, count = 0;
  std::vector<uint32_t> ids() const;
};

// A per-connection value: a constant, or drawn from a distribution (NEST's random parameters).
struct Value {
  enum class Kind { constant, uniform, normal } kind = Kind::constant;
  double a = 0.0, b = 0.0;         // constant: a; uniform: [a, b); normal: mean a, standard deviation b
  Value(double v = 0.0) : a(v) {}  // NOLINT: a number is a constant
  static Value uniform(double low, double high) { return {Kind::uniform, low, high}; }
  static Value normal(double mean, double std) { return {Kind::normal, mean, std}; }

 private:
  Value(Kind k, double a_, double b_) : kind(k), a(a_), b(b_) {}
};

// A connection rule (Network::connection_rules() names them) and its parameters, as NEST's
// conn_spec: {.name = "pairwise_bernoulli", .parameters = {{"p", 0.1}}}. The rule checks them.
struct Rule {
  std::string name = "all_to_all";
  RuleParameters parameters;  // indegree, outdegree, N, p, ... as the rule declares them
  bool allow_autapses = true, allow_multapses = true;
};

struct Synapse {
  std::string model = "static_synapse";
  Value weight = 1.0, delay = 1.0;  // pA (or nS, µS for cable cells), ms
  uint32_t receptor = 0;            // NEST's receptor_type: the target's input port
};

struct SpikeEvents {
  std::vector<uint32_t> senders;
  std::vector<double> times;  // ms
};

class Network {
 public:
  explicit Network(const Settings& settings = {});
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // n neurons or devices of a model, with parameters other than their defaults.
  Nodes create(const std::string& model, int64_t n, const std::map<std::string, double>& params = {});
  // Parameters of every node, checked together (all or nothing).
  void set(const Nodes& nodes, const std::map<std::string, double>& params);
  void connect(const Nodes& pre, const Nodes& post, const Rule& rule = {}, const Synapse& synapse = {});
  // A spike recorder of these neurons; its id reads their spikes (under MPI: all of them on
  // rank 0, the rank's own neurons' on the others).
  uint32_t record_spikes(const Nodes& neurons);
  void simulate(double ms);
  SpikeEvents spikes(uint32_t recorder) const;
  double time() const;  // ms simulated

  static std::vector<std::string> neuron_models();
  static std::vector<std::string> connection_rules();

 private:
  std::unique_ptr<Kernel> kernel_;
};

}  // namespace ranvier
