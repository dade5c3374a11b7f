// Synapse models: static_synapse and stdp_pl_synapse_hom (power-law STDP, Morrison et al.
// 2007) with NEST's parameter names; CopyModel makes new ids with their own parameters.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

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

struct SynapseModel {
  std::string name;
  SynapseKind kind = SynapseKind::static_synapse;
  StdpPlParameters stdp;
};

}  // namespace ranvier
