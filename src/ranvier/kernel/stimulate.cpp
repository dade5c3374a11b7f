// Input of the stimulating devices, generated for the slice's steps and placed at its
// arrival: each device's model gives input to its consecutive connections on the thread.
#include "devices/device_model.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {

void Kernel::stimulate(ThreadState& ts) {
  Stimulus s;
  s.first = origin_, s.last = origin_ + min_delay_;
  s.h = h_, s.seed = seed_;
  s.input = &ts.input;
  s.counts_spikes = ts.counts_spikes.data();
  s.poisson_draws = &ts.poisson_draws;
  ts.stimulus_state.resize(ts.stimuli.size());  // connections are only appended (or undone)
  for (size_t i = 0; i < ts.stimuli.size();) {
    const uint32_t device = ts.stimuli[i].device;
    size_t n = 1;
    while (i + n < ts.stimuli.size() && ts.stimuli[i + n].device == device) ++n;
    const Device& d = devices_[device];
    s.state = &ts.stimulus_state[i];
    d.stimulator->stimulate(d, s, &ts.stimuli[i], n);
    i += n;
  }
}

// What each stimulator derives from its parameters for this simulation.
void Kernel::prepare_stimulators() {
  for (Device& d : devices_)
    if (d.is_stimulator()) d.prepared = d.stimulator->prepare(d, h_, seed_);
}

}  // namespace ranvier
