// poisson_generator: an independent Poisson train of `rate` (Hz) to each target.
#include <algorithm>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

struct PoissonCounts final : PreparedStimulus {
  explicit PoissonCounts(double m) : mean(m), table(m < PoissonTable::max_mean ? m : 0.0) {}
  double mean;  // spikes per step
  PoissonTable table;
};

class PoissonGenerator final : public StimulatorModel {
 public:
  enum { rate };
  const char* name() const override { return "poisson_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override { return {{"rate", 0.0, "Hz"}}; }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (d.number(rate) < 0) throw bad_value("rate", d.number(rate), ">= 0");
  }
  std::shared_ptr<const PreparedStimulus> prepare(const Device& d, double h, int64_t, uint32_t) const override {
    return std::make_shared<PoissonCounts>(d.number(rate) * h * 1e-3);
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    for (size_t i = 0; i < n; i += 4)
      if (s.input->takes_events())
        lanes<true>(d, s, c + i, int(std::min<size_t>(4, n - i)));
      else
        lanes<false>(d, s, c + i, int(std::min<size_t>(4, n - i)));
  }

 private:
  // The trains to up to four targets (lanes). Each train is keyed by (generator, target)
  // and drawn step by step, the same whatever thread or rank draws it; four steps share one
  // Philox block, and the lanes' blocks are computed together.
  // Events: the thread has event ports (parrots, cable cells), which take each spike apart.
  template <bool Events>
  static void lanes(const Device& d, const Stimulus& s, const StimulusConnection* c, int lanes) {
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 0);
    if (begin >= end) return;
    *s.poisson_draws += uint64_t(end - begin) * uint64_t(lanes);
    const PoissonCounts& counts = d.prepared_as<PoissonCounts>();
    RingBuffers& input = *s.input;
    uint32_t target_gid[4];
    size_t slot[4];  // arrival slot of step s's events
    double weight[4];
    for (int l = 0; l < 4; ++l) {
      const StimulusConnection& lane = c[std::min(l, lanes - 1)];
      target_gid[l] = lane.target_gid;
      slot[l] = input.slot(begin + lane.delay);
      weight[l] = lane.weight;
    }
    if (counts.mean >= PoissonTable::max_mean) {
      for (int l = 0; l < lanes; ++l) {
        const Stream train(s.seed, Purpose::poisson_input, d.gid, target_gid[l]);
        for (int64_t k = begin; k < end; ++k, slot[l] = input.slot_after(slot[l], 1))
          if (const uint32_t m = train.poisson(uint64_t(k), counts.mean))
            input.add_spikes(slot[l], c[l].target, m, weight[l], c[l].delay_offset, s.sender);
      }
      return;
    }
    Block block[4];
    for (int64_t k = begin; k < end; ++k) {
      if (k == begin || (k & 3) == 0)
        Stream::blocks(s.seed, Purpose::poisson_input, d.gid, target_gid, uint64_t(k) >> 2, block);
      for (int l = 0; l < lanes; ++l) {
        // adding 0 changes no sum, and is cheaper than a branch on a random count; the row
        // follows the weight's sign, so the store's address does not wait for the count
        if constexpr (Events)
          input.add_spikes(slot[l], c[l].target, counts.table(block[l].w[k & 3]), weight[l], c[l].delay_offset,
                           s.sender);
        else
          input.row_for(slot[l], weight[l], false)[c[l].target] += weight[l] * counts.table(block[l].w[k & 3]);
        slot[l] = input.slot_after(slot[l], 1);
      }
    }
  }
};

RANVIER_REGISTER_STIMULATOR(PoissonGenerator);

}  // namespace
}  // namespace ranvier
