// What a synapse model's delivery sees: one spike of one source and the run of that source's
// connections on this thread, with the thread's input buffers and post-synaptic archives.
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/tics.hpp"
#include "kernel/thread_state.hpp"

namespace ranvier {

struct SynapseEvent {
  ConnectionTable& table;
  const SynapseModel& model;
  ThreadState& ts;
  bool long_range;
  uint32_t seed;
  uint32_t synapse;         // the model's kernel id
  double resolution;        // ms per step
  size_t source_index = 0;  // the source's run in the table
  SourceRange range;
  uint32_t source = 0;                 // gid
  int64_t stamp = 0;                   // step at whose end the source spiked
  double offset = 0.0;                 // off the grid: ms before that end (event ports act on it)
  double offset_precision = 0.0;       // ms: offsets travel in fractions of a step
  size_t emitted = 0;                  // input slot of that step: arrival slot = emitted + delay
  bool flush = false;                  // a flush event, not a spike (kernel/flush_events.hpp)
  const Device* recorder = nullptr;    // the model's weight_recorder, or null
  RecordedEvents* recorded = nullptr;  // its events on this thread
  NestTime time;                       // for rules that compute with times in ms as NEST does
  EpropSchedule eprop;                 // the kernel's e-prop settings

  // The run's connections: their targets (input columns), weights and records (strides in the
  // table: 0 where the run shares one value), how many, and the spike's grid time in ms.
  const uint32_t* targets() const { return table.targets() + range.begin; }
  double* weights() const { return table.weights().run(source_index, range.begin); }
  double* records() const { return table.records().run(source_index, range.begin); }
  size_t size() const { return range.end - range.begin; }
  double t_spike() const { return double(stamp) * resolution; }

  // The weight recorder's event of connection k of the run (input column `column`), which
  // transmitted w: NEST's port is the connection's index on its thread.
  void record(size_t k, uint32_t column, double w) const {
    const uint32_t target = ts.input_gid[column];
    if (!recorder->takes(source, target) || !recorder->active_at(stamp, resolution)) return;
    recorded->senders.push_back(source);
    recorded->stamps.push_back(stamp);
    recorded->values.insert(recorded->values.end(),
                            {w, double(target), double(ts.input_receptor[column]), double(range.begin + k)});
  }
};

// A volume transmitter's delivery (synapses/neuromodulation.hpp): every connection of a table
// whose model names it is brought up to date at the end of step stamp - 1 (time stamp h).
struct ModulationEvent {
  ConnectionTable& table;
  const SynapseModel& model;
  ThreadState& ts;
  const ModulatorSpikes& spikes;
  int64_t stamp;
  NestTime time;
};

// The plain delivery of static synapses: `weight` (stride ws: 0 when the run shares it) into
// each target's input row at its arrival step (or its event list). A weight recorder (Record)
// sees each connection's weight.
template <bool Record>
void scatter_weights(const SynapseEvent& e, const double* weight, size_t ws) {
  const uint32_t* target = e.targets();
  const size_t n = e.size();
  RingBuffers& input = e.ts.input;
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    if (ws == 0 && ds == 0 && !input.takes_events() && !input.queued()) {  // one weight and delay for the whole run
      const double w = *weight;
      double* row = input.row_for(input.slot_after(e.emitted, *delay), w, e.long_range);
      for (size_t k = 0; k < n; ++k) row[target[k]] += w;
      if constexpr (Record)
        for (size_t k = 0; k < n; ++k) e.record(k, target[k], w);
      return;
    }
    for (size_t k = 0; k < n; ++k) {
      input.add_at_slot(input.slot_after(e.emitted, delay[k * ds]), target[k], weight[k * ws], e.long_range, e.offset,
                        e.source);
      if constexpr (Record) e.record(k, target[k], weight[k * ws]);
    }
  });
}

// Short-term plasticity: `update(record, t_spike)` advances a record to this spike (time in
// ms) and returns the factor that scales the weight (stride ws: 0 when the run, or the model,
// has one). A run whose connections share one record updates it once; otherwise each
// connection's record is updated.
template <bool Record, class Update>
void scatter_scaled(const SynapseEvent& e, const double* weight, size_t ws, Update update) {
  ConnectionTable& table = e.table;
  const uint32_t* target = e.targets();
  double* record = e.records();
  const size_t rs = table.records().stride();
  const size_t n = e.size();
  const double t_spike = e.t_spike();
  double factor = 0.0;
  table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < n; ++k) {
      if (k == 0 || rs != 0) factor = update(record + k * rs, t_spike);
      const uint32_t j = target[k];
      const double w = weight[k * ws] * factor;
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, delay[k * ds]), j, w, e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, j, w);
    }
  });
}

template <bool Record, class Update>
void scatter_scaled(const SynapseEvent& e, Update update) {
  scatter_scaled<Record>(e, e.weights(), e.table.weights().stride(), update);
}

// The delivery of synapses that learn from their target at each spike (Clopath's, Urbanczik's):
// learn(target's owner, the connection's record, its delay in steps, its weight) gives the weight
// the spike transmits, which the connection keeps; it goes into the target's input at the delay,
// and a weight recorder (Record) sees it.
template <bool Record, class Learn>
void deliver_learnt(const SynapseEvent& e, Learn learn) {
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = e.table.records().stride();
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const int64_t d = delay[k * ds];
      const double w = learn(e.ts.input_owners[target[k]], record + k * rs, d, weight[k]);
      weight[k] = w;
      e.ts.input.add_signed(e.ts.input.slot_after(e.emitted, uint32_t(d)), target[k], w >= 0.0 ? 1.0 : -1.0, w,
                            e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, target[k], w);
    }
  });
}

}  // namespace ranvier
