// cont_delay_synapse: a static synapse whose delay need not be a whole number of steps, as NEST
// 3.10 has it (ContinuousDelay, synapses/synapse_model.hpp): a spike reaches cells that take
// events (the precise models, parrots) at its time plus the delay; cells on the grid see it in
// the step that holds that time. The record keeps the delay's offset; a constant delay of a
// Connect call (or SetDefaults) and SynapseCollection.set keep the fraction (NEST rounds a delay
// given to Connect, with a warning), random or array delays are rounded to whole steps.
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

enum Slot { kOffset };

template <bool Record>
void deliver(const SynapseEvent& e) {
  const uint32_t* target = e.targets();
  const double* weight = e.weights();
  const double* record = e.records();
  const size_t ws = e.table.weights().stride(), rs = e.table.records().stride();
  RingBuffers& input = e.ts.input;
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const double w = weight[k * ws];
      const auto [steps, offset] =
          ContinuousDelay::arrival(delay[k * ds], record[k * rs + kOffset], e.offset, e.resolution, e.offset_precision);
      input.add_at_slot(input.slot_after(e.emitted, steps), target[k], w, e.long_range, offset, e.source);
      if constexpr (Record) e.record(k, target[k], w);
    }
  });
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit}, {"delay", 1.0, "ms"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .from_devices = true,
                        .own_records = false,
                        .state = {0.0},
                        .delay_offset_slot = kOffset};
[[maybe_unused]] const bool registered = register_synapse("cont_delay_synapse", &model);

}  // namespace
}  // namespace ranvier
