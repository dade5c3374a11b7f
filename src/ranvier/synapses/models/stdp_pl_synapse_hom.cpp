// stdp_pl_synapse_hom: power-law STDP (Morrison et al. 2007) with parameters common to the
// model: facilitation by the post spikes since the last pre spike, depression by the post
// trace at this pre spike, both seen through the delay; then the pre trace K+.
#include <algorithm>

#include "synapses/synapse_event.hpp"

namespace ranvier {
namespace {

// Positions in the parameter list below.
enum Parameter { kWeight, kDelay, kTauPlus, kLambda, kAlpha, kMu };

struct Rule {
  double lambda, alpha, mu;
  double facilitate(double w, double k_plus) const { return w + lambda * std::pow(w, mu) * k_plus; }
  double depress(double w, double k_minus) const {
    const double next = w - lambda * alpha * w * k_minus;
    return next > 0.0 ? next : 0.0;
  }
};

// Times are steps; e.plus is exp(-steps h / tau_plus).
void deliver(const SynapseEvent& e) {
  const Rule rule{e.model.value(kLambda), e.model.value(kAlpha), e.model.value(kMu)};
  ConnectionTable& table = e.table;
  const uint32_t* target = table.targets() + e.range.begin;
  double* weight = table.weights().run(e.source_index, e.range.begin);
  const uint16_t* delay = table.delays().run(e.source_index, e.range.begin);
  // the record holds the pre trace K+ and the step of the last pre spike (0 before the first, as in NEST)
  double* pre = table.records().run(e.source_index, e.range.begin);
  const size_t ds = table.delays().stride(), ps = table.records().stride();
  const size_t n = e.range.end - e.range.begin;
  const int64_t t_spike = e.stamp;
  SpikeArchives& post = e.ts.archives;
  constexpr size_t ahead = 8;
  for (size_t k = 0; k < std::min(ahead, n); ++k) post.prefetch(target[k]);
  for (size_t k = 0; k < n; ++k) {
    if (k + ahead < n) post.prefetch(target[k + ahead]);
    const uint32_t j = target[k];
    const int64_t d = delay[k * ds], last = int64_t(pre[k * ps + 1]);
    const double kp = pre[k * ps];
    double w = weight[k];
    if (post.spiked_after(j, last - d))
      post.visit_window(j, last - d, t_spike - d,
                        [&](int64_t t_post) { w = rule.facilitate(w, kp * e.plus(t_post + d - last)); });
    w = rule.depress(w, post.k_minus_at(j, t_spike - d));
    weight[k] = w;
    // stdp weights stay >= 0: the excitatory row, whose address does not wait for w (a store
    // whose address waited for the weight's arithmetic would hold back the next loads)
    e.ts.input.row_for(e.ts.input.slot_after(e.emitted, uint32_t(d)), 1.0, e.long_range)[j] +=
        e.counts && e.counts[j] ? 1.0 : w;
  }
  for (size_t k = 0; k < (ps == 0 ? 1 : n); ++k) {
    double* p = pre + k * ps;
    p[0] = p[0] * e.plus(t_spike - int64_t(p[1])) + 1.0;
    p[1] = double(t_spike);
  }
}

const SynapseBase model{{{"weight", 1.0},
                         {"delay", 1.0},
                         {"tau_plus", 20.0, true, is_positive, "> 0"},
                         {"lambda", 0.1, true},
                         {"alpha", 1.0, true},
                         {"mu", 0.4, true}},
                        deliver,
                        true,
                        false,
                        false,
                        {0.0, 0.0}};
[[maybe_unused]] const bool registered = register_synapse("stdp_pl_synapse_hom", &model);

}  // namespace
}  // namespace ranvier
