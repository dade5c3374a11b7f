// bernoulli_synapse: a static synapse that passes each spike with probability p_transmit
// (per connection). Whether it passes comes from the counter-based stream of (source, target)
// at (spike step, synapse model, index among the multapses of that pair), so it is the same
// for any number of threads and processes.
#include "core/rng.hpp"
#include "kernel/synapse_event.hpp"
#include "synapses/multapse_index.hpp"

namespace ranvier {
namespace {

template <bool Record>
void deliver(const SynapseEvent& e) {
  thread_local MultapseIndex multapse;
  ConnectionTable& table = e.table;
  const uint32_t* target = e.targets();
  const double* weight = e.weights();
  const double* p = e.records();
  const size_t ws = table.weights().stride(), ps = table.records().stride();
  const size_t n = e.size();
  multapse.start(e.ts.n_inputs());
  table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < n; ++k) {
      const uint32_t j = target[k];
      const uint64_t index =
          (uint64_t(e.stamp) << 32) | (uint64_t(e.model.streams & 0xffff) << 16) | (multapse.next(j) & 0xffff);
      const Stream pair(e.seed, Purpose::synapse_transmission, e.source, e.ts.input_gid[j]);
      if (!(pair.uniform(index) < p[k * ps])) continue;
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, delay[k * ds]), j, weight[k * ws], e.long_range, e.offset,
                             e.source);
      if constexpr (Record) e.record(k, j, weight[k * ws]);
    }
  });
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"p_transmit", 1.0, "", false, is_probability, "in [0, 1]"}},
                        .deliver = {deliver<false>, deliver<true>}};
[[maybe_unused]] const bool registered = register_synapse("bernoulli_synapse", &model);

}  // namespace
}  // namespace ranvier
