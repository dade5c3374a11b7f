// The artificial spiking cell of Hines et al. (2011), after Kumar et al. (2010):
// state m relaxes towards m_inf so that it reaches 1, and the cell fires, a random
// U(interval_min, interval_max) after its last spike; an input of weight w adds w to m and
// moves the next firing time to where the relaxation now reaches 1. Computation happens only
// at input and output spikes; intervals come from the cell's own stream, so the firing does
// not depend on the partition.
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var { tau, interval_min, interval_max, m, m_inf, t_update, t_next, n_fired, tau_minus, tau_minus_triplet };

class ArtificialSpikingCell final : public NeuronModel {
 public:
  const char* name() const override { return "artificial_spiking_cell"; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"tau", 10.0, "ms"},          {"interval_min", 20.0, "ms"},
                                               {"interval_max", 40.0, "ms"}, {"m", 0.0, ""},
                                               {"m_inf", 0.0, ""},           {"t_update", 0.0, "ms"},
                                               {"t_next", -1.0, "ms"},       {"n_fired", 0.0, ""},
                                               {"tau_minus", 20.0, "ms"},    {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[tau][i] > 0)) throw bad_value("tau", g.vars[tau][i], "> 0");
    if (!(g.vars[interval_min][i] > 0)) throw bad_value("interval_min", g.vars[interval_min][i], "> 0");
    if (!(g.vars[interval_max][i] >= g.vars[interval_min][i]))
      throw bad_value("interval_max", g.vars[interval_max][i], ">= interval_min");
  }
  void calibrate(NeuronGroup& g, double) const override { (void)g; }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    double *M = g.var(m), *Minf = g.var(m_inf), *T0 = g.var(t_update), *Tn = g.var(t_next), *count = g.var(n_fired),
           *Tau = g.var(tau);
    const double eps = 1e-9 * ctx.h;
    for (size_t i = 0; i < g.size(); ++i)  // first interval, drawn once
      if (Tn[i] < 0) start_interval(g, i, double(ctx.origin + ctx.from) * ctx.h, ctx.seed);
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      const double t = double(ctx.origin + lag + 1) * ctx.h;  // end of this step
      for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t column = g.first_input + uint32_t(i);
        const double w = in.excitatory[column] + in.inhibitory[column];
        in.excitatory[column] = in.inhibitory[column] = in.current[column] = 0.0;
        if (w != 0.0) {
          M[i] = Minf[i] + (M[i] - Minf[i]) * std::exp(-(t - T0[i]) / Tau[i]) + w;
          T0[i] = t;
          Tn[i] = M[i] >= 1.0 ? t : t + Tau[i] * std::log((Minf[i] - M[i]) / (Minf[i] - 1.0));
        }
        if (Tn[i] <= t + eps) {
          ctx.spike(g, i, lag);
          count[i] += 1.0;
          start_interval(g, i, t, ctx.seed);
        }
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  static void start_interval(NeuronGroup& g, size_t i, double t, uint32_t seed) {
    const Stream stream(seed, Purpose::neuron_intrinsic, g.gids[i], 0);
    const double lo = g.vars[interval_min][i], hi = g.vars[interval_max][i];
    const double interval = lo + (hi - lo) * stream.uniform(uint64_t(g.vars[n_fired][i]));
    g.vars[m][i] = 0.0;
    g.vars[m_inf][i] = 1.0 / -std::expm1(-interval / g.vars[tau][i]);
    g.vars[t_update][i] = t;
    g.vars[t_next][i] = t + interval;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(ArtificialSpikingCell);

}  // namespace ranvier
