// NEST 3.10's eprop_synapse (Bellec et al. 2020): at each spike (or flush event) of its source
// the synapse computes its gradient from its target's e-prop history since its last event and
// lets the model's optimizer move its weight (models/eprop_model.hpp); a spike then transmits the
// new weight. The optimizer's settings are common parameters, which Python shows as NEST's
// "optimizer" dictionary (python/ranvier/eprop.py); its state is in each connection's record.
#include "kernel/synapse_event.hpp"
#include "models/eprop_model.hpp"
#include "synapses/models/eprop_optimizer.hpp"

namespace ranvier {
namespace {

template <bool Record>
void deliver(const SynapseEvent& e) {
  const WeightOptimizer optimizer = eprop_optimizer::of(e.model);
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
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, delay[k * ds]), target[k], w, e.long_range, e.offset,
                             e.source);
      if constexpr (Record) e.record(k, target[k], w);
    }
  });
}

// The traces and the optimizer's state start at NEST's values.
std::vector<double> initial_state() {
  std::vector<double> s(n_traces, 0.0);
  s.insert(s.end(), std::begin(WeightOptimizer::initial), std::end(WeightOptimizer::initial));
  return s;
}

const SynapseBase eprop{
    .parameters = eprop_optimizer::parameters({}),
    .deliver = {deliver<false>, deliver<true>},
    .plastic = true,
    .own_records = true,
    .eprop = Eprop::current,
    .state = initial_state(),
    .named_state = {{"optimizer.m", n_traces + WeightOptimizer::m}, {"optimizer.v", n_traces + WeightOptimizer::v}},
    .check_weight = eprop_optimizer::check_weight,
    .check_model = eprop_optimizer::check_model};
// NEST has eprop_synapse and eprop_synapse_hpc (no _lbl)
[[maybe_unused]] const bool registered =
    SynapseBases::instance().add("eprop_synapse", &eprop) && SynapseBases::instance().add("eprop_synapse_hpc", &eprop);

}  // namespace
}  // namespace ranvier
