// Synapse models: each built-in one lives in its own file (synapses/models/), declares its
// NEST parameters and delivers a spike to the run of its source's connections; CopyModel
// makes new kernel ids with their own common parameters.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/registry.hpp"

namespace ranvier {

// The presynaptic side of one stdp synapse: trace K+ and the step of its last spike
// (0 before the first, as in NEST).
struct PreTrace {
  double k_plus = 0.0;
  int64_t last_spike = 0;
  bool operator==(const PreTrace&) const = default;
};

// A parameter with NEST's name and default. Per-connection ones (weight, delay) are given
// in Connect; common ones belong to the model (SetDefaults, CopyModel).
struct SynapseParameter {
  std::string name;
  double default_value;
  bool common = false;
  bool (*valid)(double) = nullptr;  // common parameters: the values NEST accepts
  const char* rule = "";            // what `valid` demands, for the error
};

struct SynapseEvent;  // one spike reaching one source's run (synapses/synapse_event.hpp)

// A built-in synapse model, registered under its NEST name.
struct SynapseBase {
  std::vector<SynapseParameter> parameters;
  void (*deliver)(const SynapseEvent&);
  bool plastic = false;        // weights change: kept per connection, >= 0, post spikes archived
  bool common_weight = false;  // the weight is the model's (SetDefaults), not the connection's
  bool from_devices = false;   // stimulating devices may use it (they deliver as static synapses)

  int index_of(const std::string& name) const {
    for (size_t i = 0; i < parameters.size(); ++i)
      if (parameters[i].name == name) return int(i);
    return -1;
  }
};
// Entries point to the one definition of each model, so a NEST name variant is an alias.
using SynapseBases = Registry<const SynapseBase*>;

// Registers a model under its NEST name and, as NEST 3.10 does for every synapse model here,
// under name_hpc and name_lbl. NEST's variants differ only in how they address targets and
// in a connection label; Ranvier stores every model compactly, so they are the same model.
inline bool register_synapse(const std::string& name, const SynapseBase* base) {
  SynapseBases& bases = SynapseBases::instance();
  return bases.add(name, base) && bases.add(name + "_hpc", base) && bases.add(name + "_lbl", base);
}

// A synapse model of the kernel: a built-in one or a CopyModel of it.
struct SynapseModel {
  std::string name;
  const SynapseBase* base = nullptr;
  std::vector<double> values;  // by parameter of base; per-connection ones hold their default

  SynapseModel(std::string name, const SynapseBase* base) : name(std::move(name)), base(base) {
    for (const SynapseParameter& p : base->parameters) values.push_back(p.default_value);
  }
  bool plastic() const { return base->plastic; }
  double value(int index) const { return values[size_t(index)]; }
  double value_or(const std::string& parameter, double fallback) const {
    const int i = base->index_of(parameter);
    return i < 0 ? fallback : values[size_t(i)];
  }
  // Sets a common property; the per-connection ones and unknown names are errors.
  void set(const std::string& parameter, double value) {
    const int i = base->index_of(parameter);
    if (i < 0 || !base->parameters[size_t(i)].common)
      throw UnknownParameterError(name + " has no common parameter " + parameter);
    const SynapseParameter& p = base->parameters[size_t(i)];
    if (std::isnan(value) || (p.valid && !p.valid(value))) throw bad_value(parameter, value, p.rule);
    values[size_t(i)] = value;
  }
};

}  // namespace ranvier
