// The spike-response neuron of Carandini, Horton and Sincich (2007), in normalized units (NEST's
// iaf_chs_2007): V_m = V_syn + V_spike + V_noise * noise[k]. Excitatory spikes drive V_syn
// through an alpha-shaped EPSP of peak V_epsp per unit weight (time constant tau_epsp);
// inhibitory ones are ignored, as NEST ignores them. At V_m >= 1 the cell fires and V_spike, an
// after-hyperpolarization decaying with tau_reset, drops by V_reset. noise is a signal given
// beforehand, one value per step while V_noise > 0 (setting it starts it again); no currents.
#include <cmath>

#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var { V_m, V_epsp, V_reset, tau_epsp, tau_reset, V_noise, tau_minus, tau_minus_triplet };
enum List { noise };
// The state NEST does not show, kept per neuron (checkpoints and frozen nodes keep it too):
// the EPSP's current and potential, the after-hyperpolarization and the next noise value's index.
enum Hidden { i_syn_ex, V_syn, V_spike, position, n_hidden };
enum Internal { P11, P21, P30, n_internal };

class IafChs2007 final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_chs_2007"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"V_m"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", 0.0, ""},          {"V_epsp", 0.77, ""}, {"V_reset", 2.31, ""},     {"tau_epsp", 8.5, "ms"},
        {"tau_reset", 15.4, "ms"}, {"V_noise", 0.0, ""}, {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"noise", {}, ""}};
    return lists;
  }
  bool takes_currents() const override { return false; }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[V_epsp][i] >= 0)) throw bad_value("V_epsp", g.vars[V_epsp][i], ">= 0 (EPSP cannot be negative)");
    if (!(g.vars[V_reset][i] >= 0)) throw bad_value("V_reset", g.vars[V_reset][i], ">= 0");
    for (const Var tau : {tau_epsp, tau_reset})
      if (!(g.vars[tau][i] > 0)) throw bad_value(variables()[tau].name, g.vars[tau][i], "> 0");
  }
  void on_set(NeuronGroup& g, size_t i, const SetContext& c) const override {
    if (c.sets("noise") && !g.list_state.empty()) g.list_state[position][i] = {0.0};
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.list_state.resize(n_hidden, std::vector<std::vector<double>>(g.size()));
    for (auto& hidden : g.list_state)
      for (std::vector<double>& value : hidden) value.resize(1, 0.0);
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      const double te = g.vars[tau_epsp][i];
      g.internals[P11][i] = std::exp(-h / te);                                                 // NEST's P11ex_ and P22_
      g.internals[P21][i] = g.vars[V_epsp][i] * std::exp(1.0) * g.internals[P11][i] * h / te;  // C = 1
      g.internals[P30][i] = std::exp(-h / g.vars[tau_reset][i]);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input;
      for (size_t i = 0; i < g.size(); ++i) {
        double &I = g.list_state[i_syn_ex][i][0], &syn = g.list_state[V_syn][i][0];
        double &ahp = g.list_state[V_spike][i][0], &at = g.list_state[position][i][0];
        syn = syn * g.internals[P11][i] + I * g.internals[P21][i];
        I = I * g.internals[P11][i] + ex[i];
        ex[i] = inh[i] = 0.0;
        ahp *= g.internals[P30][i];
        g.vars[V_m][i] = syn + ahp + noise_term(g, i, at, ctx, lag);
        if (g.vars[V_m][i] >= 1.0) {  // NEST's U_th, fixed
          ahp -= g.vars[V_reset][i];
          g.vars[V_m][i] -= g.vars[V_reset][i];
          ctx.spike(g, i, lag);
        }
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  // The step's noise: V_noise times the signal's next value. NEST's source (read, not run) has no
  // bound check on a signal that runs out; here the run fails (at the end of its slice) and the
  // noise stops.
  static double noise_term(NeuronGroup& g, size_t i, double& at, UpdateContext& ctx, int lag) {
    const std::vector<double>& signal = g.list(noise, i);
    if (!(g.vars[V_noise][i] > 0.0) || signal.empty()) return 0.0;
    if (at >= double(signal.size())) {
      if (at == double(signal.size()))
        ctx.fail(std::make_exception_ptr(BadParameterError(
            "iaf_chs_2007 node " + std::to_string(g.gids[i]) + ": noise has " + std::to_string(signal.size()) +
            " values, one per step while V_noise > 0, and ran out at t = " +
            std::to_string(double(ctx.origin + lag + 1) * ctx.h) + " ms")));
      at += 1.0;
      return 0.0;
    }
    return g.vars[V_noise][i] * signal[size_t(at++)];
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafChs2007);

}  // namespace ranvier
