// Izhikevich (2003) neuron (NEST's izhikevich): v' = 0.04 v^2 + 5 v + 140 - u + I,
// u' = a (b v - u), and on v >= V_th: v = c, u += d. One forward Euler step per resolution
// step; with consistent_integration off, the two half steps of v of the original paper.
// Input spikes add their weight to v.
#include <cmath>

#include "models/iaf_common.hpp"

namespace ranvier {
namespace {

enum Var { V_m, U_m, a, b, c, d, I_e, V_th, V_min, consistent_integration, tau_minus, tau_minus_triplet, I_stim };

class Izhikevich final : public NeuronModel {
 public:
  const char* name() const override { return "izhikevich"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "U_m"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", -65.0, "mV"},
                                               {"U_m", -13.0, "mV"},
                                               {"a", 0.02, ""},
                                               {"b", 0.2, ""},
                                               {"c", -65.0, "mV"},
                                               {"d", 8.0, "mV"},
                                               {"I_e", 0.0, "pA"},
                                               {"V_th", 30.0, "mV"},
                                               {"V_min", -INFINITY, "mV"},
                                               {"consistent_integration", 1.0, "", true},
                                               {"tau_minus", 20.0, "ms"},
                                               {"tau_minus_triplet", 110.0, "ms"},
                                               {"I_stim", 0.0, "pA"}};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    const double ci = g.vars[consistent_integration][i];
    if (ci != 0.0 && ci != 1.0) throw bad_value("consistent_integration", ci, "a boolean");
    if (!(g.vars[tau_minus][i] > 0)) throw bad_value("tau_minus", g.vars[tau_minus][i], "> 0");
  }
  void calibrate(NeuronGroup&, double) const override {}

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    double *v = g.var(V_m), *u = g.var(U_m), *stim = g.var(I_stim);
    const double *pa = g.var(a), *pb = g.var(b), *pc = g.var(c), *pd = g.var(d), *ie = g.var(I_e), *vth = g.var(V_th),
                 *vmin = g.var(V_min), *consistent = g.var(consistent_integration);
    const double h = ctx.h;
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      for (size_t i = 0; i < g.size(); ++i) {
        const double jump = ex[i] + inh[i];
        ex[i] = inh[i] = 0.0;
        if (consistent[i] != 0.0) {  // both variables from the state at the start of the step
          const double v0 = v[i], u0 = u[i];
          v[i] += h * (0.04 * v0 * v0 + 5.0 * v0 + 140.0 - u0 + stim[i] + ie[i]) + jump;
          u[i] += h * pa[i] * (pb[i] * v0 - u0);
        } else {  // Izhikevich (2003): v in two half steps, then u from the new v
          for (int half = 0; half < 2; ++half)
            v[i] += h * 0.5 * (0.04 * v[i] * v[i] + 5.0 * v[i] + 140.0 - u[i] + stim[i] + ie[i] + jump);
          u[i] += h * pa[i] * (pb[i] * v[i] - u[i]);
        }
        v[i] = std::max(v[i], vmin[i]);
        if (v[i] >= vth[i]) {
          v[i] = pc[i];
          u[i] += pd[i];
          ctx.spike(g, i, lag);
        }
        stim[i] = current[i];
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(Izhikevich);

}  // namespace ranvier
