// Synapse models: static_synapse and stdp_pl_synapse_hom (power-law STDP, Morrison et al.
// 2007) with NEST's parameter names; CopyModel makes new ids with their own parameters.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/registry.hpp"

namespace ranvier {

enum class SynapseKind { static_synapse, stdp_pl_hom };

struct StdpPlParameters {
  double tau_plus = 20.0;
  double lambda = 0.1;
  double alpha = 1.0;
  double mu = 0.4;

  double facilitate(double w, double k_plus) const {
    return w + lambda * std::pow(w, mu) * k_plus;
  }
  double depress(double w, double k_minus) const {
    const double next = w - lambda * alpha * w * k_minus;
    return next > 0.0 ? next : 0.0;
  }
};

// The presynaptic side of one stdp synapse: trace K+ and the step of its last spike
// (0 before the first, as in NEST).
struct PreTrace {
  double k_plus = 0.0;
  int64_t last_spike = 0;
  bool operator==(const PreTrace&) const = default;
};

// A parameter of a built-in synapse model with NEST's name and default. weight and delay
// belong to each connection (no field); the others are the model's common properties.
struct SynapseParameter {
  std::string name;
  double default_value;
  double StdpPlParameters::*field = nullptr;
};

// A built-in synapse model, registered under its NEST name.
struct SynapseBase {
  SynapseKind kind;
  std::vector<SynapseParameter> parameters;
};
using SynapseBases = Registry<SynapseBase>;

// A synapse model of the kernel: a built-in one or a CopyModel of it.
struct SynapseModel {
  std::string name;
  const SynapseBase* base = nullptr;
  StdpPlParameters stdp;

  SynapseKind kind() const { return base->kind; }
  bool plastic() const { return base->kind != SynapseKind::static_synapse; }
  // Sets a common property; the per-connection ones and unknown names are errors.
  void set(const std::string& parameter, double value) {
    for (const SynapseParameter& p : base->parameters)
      if (p.name == parameter && p.field) {
        stdp.*p.field = value;
        return;
      }
    throw UnknownParameterError(name + " has no common parameter " + parameter);
  }
};

}  // namespace ranvier
