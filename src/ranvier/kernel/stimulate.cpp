// Input of the stimulating devices, generated for the slice's steps and placed at its arrival.
#include <algorithm>

#include "kernel/kernel.hpp"

namespace ranvier {

// One poisson_generator's trains to up to four consecutive targets (lanes). Each train is
// keyed by (generator, target) and drawn step by step, the same whatever thread or rank
// draws it; four steps share one Philox block, and the lanes' blocks are computed together.
void Kernel::stimulate_poisson(ThreadState& ts, const StimulusConnection* c, int lanes) {
  const Device& dev = devices_[c->device];
  const auto [begin, end] = dev.active_steps(origin_, origin_ + min_delay_, h_);
  if (begin >= end) return;
  ts.poisson_draws += uint64_t(end - begin) * uint64_t(lanes);
  const double mean = dev.rate * h_ * 1e-3;
  uint32_t target_gid[4];
  size_t slot[4];  // arrival slot of step s's events
  double weight[4];
  for (int l = 0; l < 4; ++l) {
    const StimulusConnection& lane = c[std::min(l, lanes - 1)];
    target_gid[l] = lane.target_gid;
    slot[l] = ts.input.slot(begin + lane.delay);
    weight[l] = ts.counts_spikes[lane.target] ? 1.0 : lane.weight;
  }
  if (mean >= PoissonTable::max_mean) {
    for (int l = 0; l < lanes; ++l) {
      const Stream train(seed_, Purpose::poisson_input, dev.gid, target_gid[l]);
      for (int64_t s = begin; s < end; ++s, slot[l] = ts.input.slot_after(slot[l], 1))
        if (const uint32_t n = train.poisson(uint64_t(s), mean)) ts.input.add_at_slot(slot[l], c[l].target, weight[l] * n, false);
    }
    return;
  }
  const PoissonTable& counts = poisson_tables_[c->device];
  Block block[4];
  for (int64_t s = begin; s < end; ++s) {
    if (s == begin || (s & 3) == 0) Stream::blocks(seed_, Purpose::poisson_input, dev.gid, target_gid, uint64_t(s) >> 2, block);
    for (int l = 0; l < lanes; ++l) {
      // adding 0 changes no sum, and is cheaper than a branch on a random count; the row
      // follows the weight's sign, so the store's address does not wait for the count
      ts.input.row_for(slot[l], weight[l], false)[c[l].target] += weight[l] * counts(block[l].w[s & 3]);
      slot[l] = ts.input.slot_after(slot[l], 1);
    }
  }
}

void Kernel::stimulate(ThreadState& ts) {
  const int64_t first = origin_, last = origin_ + min_delay_;
  const uint8_t* counts = ts.counts_spikes.data();
  for (size_t i = 0; i < ts.stimuli.size();) {
    const StimulusConnection& c = ts.stimuli[i];
    const Device& dev = devices_[c.device];
    int lanes = 1;
    switch (dev.type) {
      case DeviceType::poisson_generator:
        while (lanes < 4 && i + size_t(lanes) < ts.stimuli.size() && ts.stimuli[i + size_t(lanes)].device == c.device)
          ++lanes;
        stimulate_poisson(ts, &c, lanes);
        break;
      case DeviceType::dc_generator:
        for (int64_t s = first; s < last; ++s)
          if (dev.active_at(s + 1, h_)) ts.input.add_current(s + c.delay, c.target, c.weight * dev.amplitude);
        break;
      case DeviceType::spike_generator: {
        auto it = std::upper_bound(dev.spike_steps.begin(), dev.spike_steps.end(), first);
        for (; it != dev.spike_steps.end() && *it <= last; ++it) {
          if (!dev.active_at(*it, h_)) continue;
          const size_t k = size_t(it - dev.spike_steps.begin());
          const double w = dev.spike_weights.empty() ? c.weight : dev.spike_weights[k];
          ts.input.add_weight(*it - 1 + c.delay, c.target, counts[c.target] ? 1.0 : w);
        }
        break;
      }
      default: break;
    }
    i += size_t(lanes);
  }
}

}  // namespace ranvier
