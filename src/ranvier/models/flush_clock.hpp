// The sending side of NEST's flush events (kernel/flush_events.hpp): a neuron that has spiked
// (or flushed) sends a flush event once flush_event_send_interval has passed without either.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "models/neuron_model.hpp"

namespace ranvier {

// A duration in ms as whole steps (NEST's Time(Time::ms(d)).get_steps()); infinite ones stay far
// beyond any run without overflowing sums of two.
inline int64_t whole_steps(const UpdateContext& ctx, double ms) {
  return std::isinf(ms) ? INT64_MAX / 4 : int64_t(ctx.steps(ms));
}

struct FlushClock {
  std::vector<int64_t> last_event;  // per neuron: step of its last spike or flush event (0: none)
  explicit FlushClock(size_t n = 0) : last_event(n, 0) {}
  // After neuron i spiked in step t (`spiked`), or else sent a flush event if one is due.
  void step(NeuronGroup& g, size_t i, UpdateContext& ctx, int lag, bool spiked, double interval_ms) {
    const int64_t t = ctx.origin + lag;
    if (spiked) {
      last_event[i] = t;
    } else if (last_event[i] > 0 && t - last_event[i] >= whole_steps(ctx, interval_ms)) {
      ctx.flush(g, i, lag);
      last_event[i] = t;
    }
  }
};

}  // namespace ranvier
