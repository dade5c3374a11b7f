// The common parameters of NEST's e-prop synapses that set their weight optimizer
// (synapses/weight_optimizer.hpp), shown to Python as NEST's "optimizer" dictionary
// (python/ranvier/eprop.py), and the checks NEST makes of them.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "synapses/synapse_model.hpp"
#include "synapses/weight_optimizer.hpp"

namespace ranvier::eprop_optimizer {

enum Parameter {
  kWeight,
  kDelay,
  kType,
  kBatchSize,
  kEta,
  kWmin,
  kWmax,
  kEachStep,
  kBeta1,
  kBeta2,
  kEpsilon,
  kEtaFirst,
  kEtaChanges,
  kFirstOwn  // a model's own parameters from here on
};

inline bool is_type(double v) { return v == 0.0 || v == 1.0; }
inline bool is_beta(double v) { return v >= 0.0 && v < 1.0; }
inline bool is_batch_size(double v) { return v >= 1.0 && v == std::trunc(v); }

// weight, delay, the optimizer's settings, then the model's own.
inline std::vector<SynapseParameter> parameters(const std::vector<SynapseParameter>& own) {
  std::vector<SynapseParameter> p = {{"weight", 1.0, weight_unit},
                                     {"delay", 1.0, "ms"},
                                     {"optimizer.type", 0.0, "", true, is_type, "gradient_descent or adam"},
                                     {"optimizer.batch_size", 1.0, "", true, is_batch_size, "an integer > 0"},
                                     {"optimizer.eta", 1e-4, "", true, is_non_negative, ">= 0"},
                                     {"optimizer.Wmin", -100.0, weight_unit, true},
                                     {"optimizer.Wmax", 100.0, weight_unit, true},
                                     {"optimizer.optimize_each_step", 1.0, "", true},
                                     {"optimizer.beta_1", 0.9, "", true, is_beta, "in [0, 1)"},
                                     {"optimizer.beta_2", 0.999, "", true, is_beta, "in [0, 1)"},
                                     {"optimizer.epsilon", 1e-7, "", true, is_non_negative, ">= 0"},
                                     {"optimizer.eta_first", 1e-4, "", true},
                                     {"optimizer.eta_changes", 0.0, "", true}};
  p.insert(p.end(), own.begin(), own.end());
  return p;
}

inline WeightOptimizer of(const SynapseModel& m) {
  WeightOptimizer o;
  o.kind = m.value(kType) == 1.0 ? WeightOptimizer::adam : WeightOptimizer::gradient_descent;
  o.batch_size = int64_t(m.value(kBatchSize));
  o.eta = m.value(kEta);
  o.eta_first = m.value(kEtaFirst);
  o.eta_changed = m.value(kEtaChanges) != 0.0;
  o.w_min = m.value(kWmin);
  o.w_max = m.value(kWmax);
  o.each_step = m.value(kEachStep) != 0.0;
  o.beta_1 = m.value(kBeta1);
  o.beta_2 = m.value(kBeta2);
  o.epsilon = m.value(kEpsilon);
  return o;
}

// NEST's checks of a weight against the optimizer's bounds, and of the bounds.
inline void check_weight(double w, const SynapseModel& m, const double*) {
  if (!(w >= m.value(kWmin))) throw bad_value("weight", w, ">= Wmin (" + std::to_string(m.value(kWmin)) + ")");
  if (!(w <= m.value(kWmax))) throw bad_value("weight", w, "<= Wmax (" + std::to_string(m.value(kWmax)) + ")");
}
inline void check_model(const SynapseModel& m) {
  if (!(m.value(kWmin) <= m.value(kWmax))) throw bad_value("Wmin", m.value(kWmin), "<= Wmax");
}

}  // namespace ranvier::eprop_optimizer
