// Delivery: the spikes of the last cycle into the ring buffers of their targets, through the
// source-sorted connection tables; each synapse model delivers to a source's run its own way.
#include "kernel/kernel.hpp"
#include "kernel/synapse_event.hpp"

namespace ranvier {

void Kernel::deliver(ThreadState& ts, std::vector<ConnectionTable>& tables, const Spike* begin, const Spike* end,
                     bool long_range, bool flush) {
  const bool payloads = payloads_.active();  // spikes that carry a number in the offset field
  for (size_t syn = 0; syn < tables.size(); ++syn) {
    ConnectionTable& table = tables[syn];
    const SynapseModel& model = network_.synapse_models()[syn];
    // rate connections and gap junctions carry no spikes (kernel/coupling.hpp)
    if (table.size() == 0 || model.base->secondary != SecondaryEvent::none ||
        (flush && model.base->eprop == Eprop::none))
      continue;
    uint64_t& events = model.plastic() ? ts.plastic_events : ts.static_events;
    SynapseEvent e{table, model, ts, long_range, seed_, uint32_t(syn), h_};
    e.time = {step_tics(), tics_per_ms()};
    e.offset_precision = h_ / offset_units_;
    e.flush = flush;
    e.eprop = eprop_schedule();
    if (model.weight_recorder >= 0) {
      e.recorder = &network_.devices()[size_t(model.weight_recorder)];
      e.recorded = &ts.recorded[size_t(model.weight_recorder)];
    }
    const auto send = e.recorder ? model.base->deliver.recorded : model.base->deliver.plain;
    size_t hint = 0;
    for (const Spike* s = begin; s != end; ++s) {
      hint = table.seek(s->gid, hint);
      if (hint == table.sources().size()) break;
      if (table.sources()[hint] != s->gid) continue;
      e.source_index = hint;
      e.range = table.range_at(hint);
      e.source = s->gid;
      e.stamp = s->stamp;
      e.offset = ms_of_units(s->offset, h_, offset_units_);
      if (payloads)
        if (const double* carried = payloads_.find(s->gid, s->stamp)) e.offset = *carried;
      e.emitted = ts.input.slot(s->stamp - 1);
      if (!flush) events += e.size();
      send(e);
    }
  }
}

void Kernel::neuromodulate(ThreadState& ts, uint32_t transmitter, int64_t stamp) {
  ModulatorSpikes& spikes = ts.modulators.of(transmitter);
  const NestTime time{step_tics(), tics_per_ms()};
  for (size_t syn = 0; syn < ts.tables.size(); ++syn) {
    const SynapseModel& model = network_.synapse_models()[syn];
    if (!model.base->modulate || model.value_or(model.base->modulator, 0.0) != double(transmitter)) continue;
    for (auto* tables : {&ts.tables, &ts.long_tables})
      if ((*tables)[syn].size()) model.base->modulate({(*tables)[syn], model, ts, spikes, stamp, time});
  }
  spikes.assign(1, {stamp, time(stamp), 0.0});  // the synapses are up to date at this time
}

// Long-range spikes of the last D cycles, cycle by cycle in emission order, so each target
// sees them in the order a conventional run delivers them.
void Kernel::deliver_lumped(ThreadState& ts) {
  const std::vector<Spike>& lumped = pathways_.lumped();
  const Spike* begin = lumped.data();
  const Spike* end = begin + lumped.size();
  while (begin != end) {
    const int64_t cycle = (begin->stamp - 1) / min_delay_;
    const Spike* stop = begin;
    while (stop != end && (stop->stamp - 1) / min_delay_ == cycle) ++stop;
    deliver(ts, ts.long_tables, begin, stop, true);
    begin = stop;
  }
}

}  // namespace ranvier
