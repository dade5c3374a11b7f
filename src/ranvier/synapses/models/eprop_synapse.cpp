// NEST 3.10's eprop_synapse (Bellec et al. 2020): at each spike (or flush event) of its source
// the synapse computes its gradient from its target's e-prop history since its last event and
// lets the model's optimizer move its weight (models/eprop_model.hpp); a spike then transmits the
// new weight. The optimizer's settings are common parameters, which Python shows as NEST's
// "optimizer" dictionary (python/ranvier/eprop.py); its state is in each connection's record.
#include "kernel/synapse_event.hpp"
#include "models/eprop_model.hpp"

namespace ranvier {
namespace {

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
  kEtaChanges
};

WeightOptimizer optimizer_of(const SynapseModel& m) {
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

template <bool Record>
void deliver(const SynapseEvent& e) {
  const WeightOptimizer optimizer = optimizer_of(e.model);
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = e.table.records().stride();
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const InputOwner& owner = e.ts.input_owners[target[k]];
      NeuronGroup& g = *owner.group;
      double* trace = record + k * rs;
      double w = weight[k];
      const int64_t previous = int64_t(trace[t_previous]);
      if (previous != 0) g.model->eprop_model()->gradient(g, owner.neuron, trace, w, optimizer, e.stamp, e.flush);
      EpropModel::archive(g, owner.neuron).erase_used(e.stamp, previous);
      trace[t_previous] = double(e.stamp);
      trace[previous_flush] = e.flush ? 1.0 : 0.0;
      weight[k] = w;
      if (e.flush) continue;
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, delay[k * ds]), target[k], w, e.long_range, e.offset);
      if constexpr (Record) e.record(k, target[k], w);
    }
  });
}

// NEST's checks of a weight against the optimizer's bounds, and of the bounds.
void check_weight(double w, const SynapseModel& m, const double*) {
  if (!(w >= m.value(kWmin))) throw bad_value("weight", w, ">= Wmin (" + std::to_string(m.value(kWmin)) + ")");
  if (!(w <= m.value(kWmax))) throw bad_value("weight", w, "<= Wmax (" + std::to_string(m.value(kWmax)) + ")");
}
void check_model(const SynapseModel& m) {
  if (!(m.value(kWmin) <= m.value(kWmax))) throw bad_value("Wmin", m.value(kWmin), "<= Wmax");
}

bool is_optimizer_type(double v) { return v == 0.0 || v == 1.0; }
bool is_beta(double v) { return v >= 0.0 && v < 1.0; }
bool is_batch_size(double v) { return v >= 1.0 && v == std::trunc(v); }

// The traces and the optimizer's state start at NEST's values.
std::vector<double> initial_state() {
  std::vector<double> s(n_traces, 0.0);
  s.insert(s.end(), std::begin(WeightOptimizer::initial), std::end(WeightOptimizer::initial));
  return s;
}

const SynapseBase eprop{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"optimizer.type", 0.0, "", true, is_optimizer_type, "gradient_descent or adam"},
                                       {"optimizer.batch_size", 1.0, "", true, is_batch_size, "an integer > 0"},
                                       {"optimizer.eta", 1e-4, "", true, is_non_negative, ">= 0"},
                                       {"optimizer.Wmin", -100.0, weight_unit, true},
                                       {"optimizer.Wmax", 100.0, weight_unit, true},
                                       {"optimizer.optimize_each_step", 1.0, "", true},
                                       {"optimizer.beta_1", 0.9, "", true, is_beta, "in [0, 1)"},
                                       {"optimizer.beta_2", 0.999, "", true, is_beta, "in [0, 1)"},
                                       {"optimizer.epsilon", 1e-7, "", true, is_non_negative, ">= 0"},
                                       {"optimizer.eta_first", 1e-4, "", true},
                                       {"optimizer.eta_changes", 0.0, "", true}},
                        .deliver = {deliver<false>, deliver<true>},
                        .plastic = true,
                        .own_records = true,
                        .eprop = true,
                        .state = initial_state(),
                        .check_weight = check_weight,
                        .check_model = check_model};
// NEST has eprop_synapse and eprop_synapse_hpc (no _lbl)
[[maybe_unused]] const bool registered =
    SynapseBases::instance().add("eprop_synapse", &eprop) && SynapseBases::instance().add("eprop_synapse_hpc", &eprop);

}  // namespace
}  // namespace ranvier
