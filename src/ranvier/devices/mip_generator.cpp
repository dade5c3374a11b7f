// mip_generator: correlated Poisson trains by multiple interaction (Kuhn et al. 2003): one
// mother train of `rate` (Hz) shared by all targets, each of whose spikes a target receives
// with probability p_copy, independently of the other targets. The mother train is keyed by
// the generator, each target's copies by (generator, target): the same for any number of
// threads or processes.
#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {
namespace {

class MipGenerator final : public StimulatorModel {
 public:
  enum { rate, p_copy };
  const char* name() const override { return "mip_generator"; }
  bool emits_spikes() const override { return true; }
  std::vector<DeviceParameter> parameters(double) const override { return {{"rate", 0.0, "Hz"}, {"p_copy", 1.0, ""}}; }
  void validate(const Device& d, const std::vector<size_t>&, double) const override {
    if (d.number(rate) < 0) throw bad_value("rate", d.number(rate), ">= 0");
    if (d.number(p_copy) < 0 || d.number(p_copy) > 1) throw bad_value("p_copy", d.number(p_copy), "in [0, 1]");
  }
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const override {
    const auto [begin, end] = d.sending_steps(s.first, s.last, s.h, 0);
    if (begin >= end) return;
    const PoissonCounts mother_counts(d.number(rate) * s.h * 1e-3);
    const double p = d.number(p_copy);
    const Stream mother(s.seed, Purpose::stimulus, d.gid, 0);  // gid 0 is no target's
    *s.poisson_draws += uint64_t(end - begin);
    for (int64_t k = begin; k < end; ++k) {
      const uint32_t spikes = mother_counts(mother, uint64_t(k));
      if (spikes == 0) continue;
      for (size_t i = 0; i < n; ++i) {
        uint32_t copies = spikes;
        if (p < 1) {  // copy j of step k: draw (k << 24) + j of the target's stream
          const Stream copy(s.seed, Purpose::stimulus, d.gid, c[i].target_gid);
          copies = 0;
          for (uint32_t j = 0; j < spikes; ++j) copies += copy.uniform((uint64_t(k) << 24) + j) < p;
        }
        if (copies) s.spikes(c[i], k, copies);
      }
    }
  }
};

RANVIER_REGISTER_STIMULATOR(MipGenerator);

}  // namespace
}  // namespace ranvier
