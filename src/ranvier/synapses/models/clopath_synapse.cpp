// NEST 3.10's clopath_synapse (Clopath et al. 2010): at each spike of its source the synapse
// reads its target's Clopath history (models/clopath_history.hpp) through its dendritic delay:
// every potentiation entry since the source's last spike raises the weight by the entry times
// the presynaptic trace x_bar decayed to it (up to Wmax), then the depression value at this
// spike lowers it (down to Wmin); the spike transmits the new weight, and x_bar decays to this
// spike and steps by 1 / tau_x. Times in ms as NEST computes them.
#include <cmath>

#include "kernel/synapse_event.hpp"
#include "models/clopath_history.hpp"

namespace ranvier {
namespace {

enum Slot { tau_x, Wmin, Wmax, x_bar, last_spike };  // the record: parameters, then the last spike's step

template <bool Record>
void deliver(const SynapseEvent& e) {
  const double t_spike = e.time(e.stamp);
  deliver_learnt<Record>(e, [&](const InputOwner& owner, double* r, int64_t d, double w) {
    ClopathHistory& history = clopath_state(*owner.group).histories[owner.neuron];
    const int64_t last = int64_t(r[last_spike]);
    const double d_ms = e.time.delay(d), t_last = e.time(last);
    history.visit_potentiation(last - d, e.stamp - d, [&](int64_t stamp, double dw) {
      const double minus_dt = t_last - (e.time(stamp) + d_ms);
      w += dw * (r[x_bar] * std::exp(minus_dt / r[tau_x]));
      w = w < r[Wmax] ? w : r[Wmax];
    });
    w -= e.stamp - d >= 0 ? history.depression(e.stamp - d) : 0.0;
    w = w > r[Wmin] ? w : r[Wmin];
    r[x_bar] = r[x_bar] * std::exp((t_last - t_spike) / r[tau_x]) + 1.0 / r[tau_x];
    r[last_spike] = double(e.stamp);
    return w;
  });
}

// NEST: the weight has the sign of Wmin (zero counting as positive) and of Wmax (zero counting
// as negative).
void check_weight(double w, const SynapseModel&, const double* r) {
  if ((w >= 0.0) != (r[Wmin] >= 0.0)) throw bad_value("weight", w, "of the sign of Wmin = " + std::to_string(r[Wmin]));
  if ((w >= 0.0) != (r[Wmax] > 0.0)) throw bad_value("weight", w, "of the sign of Wmax = " + std::to_string(r[Wmax]));
}

const SynapseBase clopath{.parameters = {{"weight", 1.0, weight_unit},
                                         {"delay", 1.0, "ms"},
                                         {"tau_x", 15.0, "ms", false, is_positive, "> 0"},
                                         {"Wmin", 0.0, weight_unit},
                                         {"Wmax", 100.0, weight_unit},
                                         {"x_bar", 0.0, ""}},
                          .deliver = {deliver<false>, deliver<true>},
                          .plastic = true,
                          .own_records = true,
                          .post_history = PostHistory::clopath,
                          .state = {0.0},
                          .check_weight = check_weight};
[[maybe_unused]] const bool registered = register_synapse("clopath_synapse", &clopath);

}  // namespace
}  // namespace ranvier
