// Leaky integrate-and-fire neuron whose input spikes make the membrane potential jump by
// their weight (NEST's iaf_psc_delta), integrated exactly on the grid. With
// refractory_input, spikes arriving while refractory are not lost: each is discounted by
// the membrane decay until the end of the refractory period and added then.
#include <algorithm>
#include <cmath>

#include "models/iaf_delta_common.hpp"
#include "models/ignore_and_spike.hpp"

namespace ranvier {
namespace {

using namespace iaf_delta;
enum DeltaVar { refractory_spikes = n_common, ignore_first };
enum Internal { P33, P30, n_internal };

class IafPscDelta final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_psc_delta"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"V_m"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables(-INFINITY);
      v.push_back({"refractory_spikes", 0.0, "mV"});
      for (const Variable& m : ignore_and_spike::variables()) v.push_back(m);
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    validate_common(g, i);
    if (!(g.vars[t_ref][i] >= 0)) throw bad_value("t_ref", g.vars[t_ref][i], ">= 0");
    ignore_and_spike::validate(g, i, ignore_first);
  }
  // a new offset restarts ignore_and_spike's count
  void on_set(NeuronGroup& g, size_t i, const SetContext& c) const override {
    if (c.sets("ignore_and_spike_offset") && i < g.second_counters.size()) g.second_counters[i] = -1;
  }
  void after_set(NeuronGroup& g, size_t i) const override { iaf::sync_rest(g, i, V_rel); }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    // ignore_and_spike's steps to each neuron's next spike, kept where a neuron uses it
    const std::vector<double>& ignore = g.vars[ignore_first];
    if (std::any_of(ignore.begin(), ignore.end(), [](double on) { return on != 0.0; }))
      g.second_counters.resize(g.size(), -1);
    else
      g.second_counters.clear();
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i];
      g.internals[P33][i] = std::exp(-h / tm);
      g.internals[P30][i] = 1 / g.vars[C_m][i] * (1 - g.internals[P33][i]) * tm;  // NEST's, to the bit
    }
    g.share_internals_if_uniform();
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const bool forced = !g.second_counters.empty();
    if (g.shared_internals)
      forced ? update_steps<0, true>(g, ctx) : update_steps<0, false>(g, ctx);
    else
      forced ? update_steps<1, true>(g, ctx) : update_steps<1, false>(g, ctx);
  }

 private:
  // ps is the stride of the internals (0: shared by all neurons); forced: some neurons
  // ignore_and_spike.
  template <size_t ps, bool forced>
  static void update_steps(NeuronGroup& g, UpdateContext& ctx) {
    double *v = g.var(V_m), *rest = g.var(V_rel), *stim = g.var(I_stim), *buffered = g.var(refractory_spikes);
    const double *e_l = g.var(E_L), *ie = g.var(I_e), *vmin = g.var(V_min), *vth = g.var(V_th),
                 *vreset = g.var(V_reset), *keep = g.var(refractory_input), *tm = g.var(tau_m), *tref = g.var(t_ref);
    const double *p33 = g.internal(P33), *p30 = g.internal(P30);
    int32_t* r = g.counters.data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      for (size_t i = 0; i < g.size(); ++i) {
        const size_t p = i * ps;
        const double jump = ex[i] + inh[i];
        ex[i] = inh[i] = 0.0;
        double y = rest[i];
        if (r[i] == 0) {
          y = p30[p] * (stim[i] + ie[i]) + p33[p] * y + jump + buffered[i];
          buffered[i] = 0.0;
          y = std::max(y, vmin[i] - e_l[i]);
        } else {
          // Decayed from now to the end of the refractory period, where it is added.
          if (keep[i] != 0.0 && jump != 0.0) buffered[i] += jump * std::exp(-r[i] * ctx.h / tm[i]);
          --r[i];
        }
        const bool fires = y >= vth[i] - e_l[i];
        if (forced ? ignore_and_spike::spikes(g, i, ignore_first, ctx, fires, g.second_counters[i]) : fires) {
          r[i] = ctx.steps(tref[i]);
          y = vreset[i] - e_l[i];
          ctx.spike(g, i, lag);
        }
        rest[i] = y;
        v[i] = y + e_l[i];
        stim[i] = current[i];
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscDelta);

}  // namespace ranvier
