// Point-process neuron with delta-shaped post-synaptic currents (NEST's pp_psc_delta; Jolivet
// et al. 2006, Deger et al. 2014), as NEST 3.10 updates it. V_m (relative, mV) integrates the
// input exactly; the neuron fires at the rate c_1 V' + c_2 exp(c_3 V') (Hz) of V' = V_m - E_sfa,
// where E_sfa sums adaptation elements that jump by q_sfa[k] at each spike and decay with
// tau_sfa[k]. With a dead time, a step has at most one spike (probability 1 - exp(-rate h)),
// after which the neuron is silent for dead_time (at least a step), or for a gamma-distributed
// time of mean dead_time and shape dead_time_shape (dead_time_random); without one, a Poisson
// number of spikes. with_reset sets V_m to 0 after a spike. The draws of step s come from the
// neuron's own streams at index s, so spikes are the same for any threads or processes.
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_sfa,
  C_m,
  tau_m,
  I_e,
  c_1,
  c_2,
  c_3,
  dead_time,
  dead_time_random,
  dead_time_shape,
  with_reset,
  t_ref_remaining,
  tau_minus,
  tau_minus_triplet,
  I_stim
};
enum List { tau_sfa, q_sfa };
enum State { elems, decay, n_state };  // hidden lists: the adaptation elements, their decay per step
enum Internal { P30, P33, n_internal };

class PpPscDelta final : public NeuronModel {
 public:
  const char* name() const override { return "pp_psc_delta"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "E_sfa"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", 0.0, "mV"},
                                               {"E_sfa", 0.0, "mV"},
                                               {"C_m", 250.0, "pF"},
                                               {"tau_m", 10.0, "ms"},
                                               {"I_e", 0.0, "pA"},
                                               {"c_1", 0.0, "Hz/mV"},
                                               {"c_2", 1.238, "Hz"},
                                               {"c_3", 0.25, "1/mV"},
                                               {"dead_time", 1.0, "ms"},
                                               {"dead_time_random", 0.0, "", true},
                                               {"dead_time_shape", 1.0, ""},
                                               {"with_reset", 1.0, "", true},
                                               {"t_ref_remaining", 0.0, "ms"},
                                               {"tau_minus", 20.0, "ms"},
                                               {"tau_minus_triplet", 110.0, "ms"},
                                               {"I_stim", 0.0, "pA"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"tau_sfa", {}, "ms", true}, {"q_sfa", {}, "mV", true}};
    return lists;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](Var k) { return g.vars[k][i]; };
    for (const Var k : {C_m, tau_m, tau_minus})
      if (!(v(k) > 0)) throw bad_value(variables()[k].name, v(k), "> 0");
    for (const Var k : {dead_time, t_ref_remaining, c_3})
      if (!(v(k) >= 0)) throw bad_value(variables()[k].name, v(k), ">= 0");
    const double shape = v(dead_time_shape);
    if (!(shape >= 1 && shape == std::floor(shape) && shape < 65536))
      throw bad_value("dead_time_shape", shape, "a whole number from 1 to 65535");
    const std::vector<double>& taus = g.list(tau_sfa, i);
    if (g.list(q_sfa, i).size() != taus.size())
      throw bad_value("q_sfa", listed(g.list(q_sfa, i)), "as long as tau_sfa (" + std::to_string(taus.size()) + ")");
    for (double t : taus)
      if (!(t > 0)) throw bad_value("tau_sfa", listed(taus), "> 0 throughout");
  }
  // t_ref_remaining starts a dead time now (in whole steps, as NEST rounds it).
  void on_set(NeuronGroup& g, size_t i, const SetContext& set) const override {
    if (!set.sets("t_ref_remaining")) return;
    g.counters.resize(g.size(), 0);
    g.counters[i] = duration_steps(g.vars[t_ref_remaining][i], set.tics_per_ms, tics_per_step(set.h, set.tics_per_ms));
  }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    g.list_state.resize(n_state, std::vector<std::vector<double>>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      g.internals[P33][i] = std::exp(-h / g.vars[tau_m][i]);
      g.internals[P30][i] = 1 / g.vars[C_m][i] * (1 - g.internals[P33][i]) * g.vars[tau_m][i];
      // elements keep their values when the lists grow or shrink, as in NEST
      const std::vector<double>& taus = g.list(tau_sfa, i);
      g.list_state[elems][i].resize(taus.size(), 0.0);
      g.list_state[decay][i].resize(taus.size());
      for (size_t k = 0; k < taus.size(); ++k) g.list_state[decay][i][k] = std::exp(-h / taus[k]);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    double *v = g.var(V_m), *q = g.var(E_sfa), *stim = g.var(I_stim);
    const double *ie = g.var(I_e), *p30 = g.internal(P30), *p33 = g.internal(P33);
    int32_t* r = g.counters.data();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      const uint64_t step = uint64_t(ctx.origin + lag);
      for (size_t i = 0; i < g.size(); ++i) {
        v[i] = p30[i] * (stim[i] + ie[i]) + p33[i] * v[i] + (ex[i] + inh[i]);  // inh holds negative weights
        ex[i] = inh[i] = 0.0;
        q[i] = 0.0;
        std::vector<double>& e = g.list_state[elems][i];
        for (size_t k = 0; k < e.size(); ++k) q[i] += e[k] *= g.list_state[decay][i][k];
        if (r[i] == 0) {
          fire(g, i, ctx, lag, step);
        } else {
          --r[i];
        }
        stim[i] = current[i];
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  static void fire(NeuronGroup& g, size_t i, UpdateContext& ctx, int lag, uint64_t step) {
    auto v = [&](Var k) -> double& { return g.vars[k][i]; };
    const double u = v(V_m) - v(E_sfa);
    const double rate = v(c_1) * u + v(c_2) * std::exp(v(c_3) * u);  // Hz
    if (!(rate > 0.0)) return;
    const Stream draws(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0);
    const double mean = rate * ctx.h * 1e-3;
    const uint32_t n =
        v(dead_time) > 0.0 ? uint32_t(draws.uniform(step) <= -std::expm1(-mean)) : draws.poisson(step, mean);
    if (n == 0) return;
    if (v(dead_time) == 0.0) {
      g.counters[i] = 0;
    } else if (v(dead_time_random) != 0.0) {  // a gamma time of mean dead_time: shape exponentials
      const Stream waits(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 1);
      double sum = 0.0;
      for (uint64_t k = 0; k < uint64_t(v(dead_time_shape)); ++k) sum -= std::log1p(-waits.uniform((step << 16) | k));
      g.counters[i] = ctx.steps(sum * v(dead_time) / v(dead_time_shape));
    } else {  // at least a step (NEST lengthens a shorter one to the resolution)
      g.counters[i] = std::max(ctx.steps(v(dead_time)), 1);
    }
    std::vector<double>& e = g.list_state[elems][i];
    for (size_t k = 0; k < e.size(); ++k) e[k] += g.list(q_sfa, i)[k] * n;
    for (uint32_t s = 0; s < n; ++s) ctx.spike(g, i, lag);
    if (v(with_reset) != 0.0) v(V_m) = 0.0;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(PpPscDelta);

}  // namespace ranvier
