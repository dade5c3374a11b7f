// Input of the stimulating devices, generated for the slice's steps and placed at its
// arrival: each device's model gives input to its consecutive connections on the thread.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "devices/device_model.hpp"
#include "devices/recorder_model.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {

void Kernel::stimulate(ThreadState& ts) {
  Stimulus s;
  s.first = origin_, s.last = origin_ + min_delay_;
  s.h = h_, s.seed = seed_;
  s.poisson_draws = &ts.poisson_draws;
  // Neurons' input, then the trains of the generators connected to spike recorders.
  for (auto [stimuli, state, input] : {std::tuple{&ts.stimuli, &ts.stimulus_state, &ts.input},
                                       std::tuple{&ts.tap_stimuli, &ts.tap_stimulus_state, &ts.tap_input}}) {
    s.input = input;
    state->resize(stimuli->size());  // connections are only appended (or undone)
    for (size_t i = 0; i < stimuli->size();) {
      const uint32_t device = (*stimuli)[i].device;
      size_t n = 1;
      while (i + n < stimuli->size() && (*stimuli)[i + n].device == device) ++n;
      const Device& d = network_.devices()[device];
      s.state = &(*state)[i];
      s.sender = d.gid;
      d.stimulator->stimulate(d, s, &(*stimuli)[i], n);
      i += n;
    }
  }
}

// The spikes of the generators connected to spike recorders that reach steps [from, to) of
// the slice (each an event of its tap's column), recorded at the time they left the generator
// (as NEST's recorders do).
void Kernel::record_taps(ThreadState& ts, int from, int to) {
  for (int lag = from; lag < to; ++lag) {
    for (const InputEvent& e : ts.tap_input.events(origin_ + lag)) {
      const StimulusConnection& c = ts.tap_stimuli[e.column];
      const int64_t stamp = origin_ + lag + 1 - int64_t(c.delay);
      const Device& d = network_.devices()[ts.tap_recorder[e.column]];
      if (!d.active_at(stamp, h_)) continue;
      d.recorder->record_spike(d, ts.recorded[ts.tap_recorder[e.column]],
                               {network_.devices()[c.device].gid, stamp, e.offset, ts.tap_port[e.column], c.weight});
    }
    ts.tap_input.clear_events(origin_ + lag);
  }
}

// The recordables of the generators multimeters record (a current, a rate), at the time the
// sample of the step that starts then is taken (as NEST: the current sent in step k shows at
// (k + 1) h).
void Kernel::record_generators(ThreadState& ts, int from, int to) {
  for (int lag = from; lag < to; ++lag) {
    const int64_t k = origin_ + lag, stamp = k + 1;
    for (const GeneratorProbe& p : ts.generator_probes) {
      const Device& mm = network_.devices()[p.multimeter];
      if (mm.record_from.empty() || !mm.samples_at(stamp) || !mm.active_at(stamp, h_)) continue;
      const Device& g = network_.devices()[p.generator];
      const double value = g.stimulator->recorded_value(g, k, h_, seed_, p.targets);
      RecordedEvents& ev = ts.recorded[p.multimeter];
      ev.senders.push_back(g.gid);
      ev.stamps.push_back(stamp);
      ev.values.insert(ev.values.end(), mm.record_from.size(), value);  // record_from holds only that recordable
    }
  }
}

// What each stimulator derives from its parameters for this simulation, and the targets of
// the generators whose currents are recorded.
void Kernel::prepare_stimulators() {
  for (Device& d : network_.devices())
    if (d.is_stimulator()) d.prepared = d.stimulator->prepare(d, h_, config_.tics_per_ms, seed_);
  std::vector<ThreadState>& threads = network_.threads();
  for (ThreadState& ts : threads)  // a model's common weight (static_synapse_hom_w), as it is now
    for (StimulusConnection& c : ts.stimuli)
      if (const SynapseModel& m = network_.synapse_models()[size_t(network_.devices()[c.device].synapse)];
          m.base->common_weight)
        c.weight = m.value_or("weight", 0.0);
  for (ThreadState& ts : threads)
    for (GeneratorProbe& p : ts.generator_probes) {
      p.targets.clear();
      for (const ThreadState& other : threads)
        for (const StimulusConnection& c : other.stimuli)
          if (c.device == p.generator) p.targets.push_back(c.target_gid);
      std::sort(p.targets.begin(), p.targets.end());
      p.targets.erase(std::unique(p.targets.begin(), p.targets.end()), p.targets.end());
    }
}

}  // namespace ranvier
