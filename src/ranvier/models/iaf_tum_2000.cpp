// NEST's iaf_tum_2000: iaf_psc_exp with the short-term plasticity of Tsodyks et al. (2000)
// computed once per presynaptic neuron rather than per synapse. At each spike the cell
// advances its resources x, y, u (as tsodyks_synapse does per connection) and sends the released
// fraction u x with the spike (NeuronModel::spike_payload), which its targets at receptor_type 1
// multiply the weight by; at receptor_type 0 spikes act as on iaf_psc_exp. Currents enter at
// receptor_type 0 directly and at 1 through the excitatory synaptic filter. With delta > 0 the
// threshold is soft (escape rate rho exp((V_m - V_th) / delta)).
#include <cmath>

#include "models/iaf_exp_currents.hpp"

namespace ranvier {
namespace {

using namespace iaf;
enum TumVar { delta = n_common, rho, tau_fac, tau_psc, tau_rec, U, x, y, u, I_stim_1, t_last, n_tum };
using namespace iaf_exp;

class IafTum2000 final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_tum_2000"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "I_syn_ex", "I_syn_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = common_variables();
      v.insert(v.end(), {{"delta", 0.0, "mV"},
                         {"rho", 0.01, "Hz"},
                         {"tau_fac", 1000.0, "ms"},
                         {"tau_psc", 2.0, "ms"},
                         {"tau_rec", 400.0, "ms"},
                         {"U", 0.5, ""},
                         {"x", 0.0, ""},
                         {"y", 0.0, ""},
                         {"u", 0.0, ""},
                         {"I_stim_1", 0.0, "pA", false, {}, true},  // the current at receptor_type 1
                         {"t_last", 0.0, "ms", false, {}, true}});  // NEST's time of the last spike, 0 before one
      return v;
    }();
    return vars;
  }
  bool spike_payload() const override { return true; }
  bool takes_events() const override { return true; }  // each spike's payload, at receptor_type 1
  bool takes_currents() const override { return true; }
  void check_target(const NeuronModel& target, uint32_t receptor) const override {
    if (target.precise_spike_times())
      throw IllegalConnectionError("iaf_tum_2000 neurons cannot be connected to precise spiking neurons.");
    if (&target == this && receptor != 1)
      throw IllegalConnectionError("iaf_tum_2000 neurons must be connected via receptor_type 1.");
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = 2;
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (receptor > 1)
      throw bad_value("receptor_type", receptor,
                      std::string("0 or 1 for ") + (current ? "currents" : "spikes") + " into iaf_tum_2000");
    return receptor;
  }

  void validate(NeuronGroup& g, size_t i) const override {
    validate_common(g, i);
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(tau_psc) > 0)) throw bad_value("tau_psc", v(tau_psc), "> 0");
    if (!(v(tau_rec) > 0)) throw bad_value("tau_rec", v(tau_rec), "> 0");
    if (!(v(tau_fac) >= 0)) throw bad_value("tau_fac", v(tau_fac), ">= 0");
    if (!(v(U) >= 0 && v(U) <= 1)) throw bad_value("U", v(U), "in [0, 1]");
    if (!(v(u) >= 0 && v(u) <= 1)) throw bad_value("u", v(u), "in [0, 1]");
    if (!(v(x) + v(y) <= 1)) throw bad_value("x", v(x), "such that x + y <= 1 (y = " + std::to_string(v(y)) + ")");
    if (!(v(rho) >= 0)) throw bad_value("rho", v(rho), ">= 0");
    if (!(v(delta) >= 0)) throw bad_value("delta", v(delta), ">= 0");
  }
  void after_set(NeuronGroup& g, size_t i) const override { sync_rest(g, i); }

  void calibrate(NeuronGroup& g, double h) const override {
    iaf_exp::calibrate(g, h);  // one per neuron: the step reads them by index
    g.counters.resize(g.size(), 0);
  }

  // NEST's step, neuron by neuron: propagate, filter the current at receptor_type 1, take the
  // step's spikes, then the threshold; the currents read at its end act from the next step.
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const size_t n = g.size();
    std::vector<double>& arrived = g.scratch;
    arrived.assign(2 * n, 0.0);  // the step's excitatory, then inhibitory input, by neuron
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      for (const InputEvent& e : ctx.events(lag)) {
        const uint32_t column = e.column - g.first_input;
        if (column >= 2 * n) continue;
        const double s = column < n ? e.weight : e.weight * e.offset;  // receptor_type 1: times the payload
        arrived[(s > 0 ? 0 : n) + column % n] += s;
      }
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < n; ++i)
        step(g, ctx, in, lag, i, arrived[i], arrived[n + i]), arrived[i] = arrived[n + i] = 0.0;
      ctx.after_step(g, lag);
    }
  }

 private:
  static void step(NeuronGroup& g, UpdateContext& ctx, const InputRow& in, int lag, size_t i, double arrived_ex,
                   double arrived_in) {
    auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
    auto p = [&](int k) { return g.internals[size_t(k)][i]; };
    double& rest = v(V_rel);
    if (g.counters[i] == 0)
      rest = rest * p(P22) + v(I_syn_ex) * p(P21_ex) + v(I_syn_in) * p(P21_in) + (v(I_e) + v(I_stim)) * p(P20);
    else
      --g.counters[i];
    v(I_syn_ex) *= p(P11_ex);
    v(I_syn_in) *= p(P11_in);
    v(I_syn_ex) += (1.0 - p(P11_ex)) * v(I_stim_1);
    v(I_syn_ex) += arrived_ex;
    v(I_syn_in) += arrived_in;
    const int64_t stamp = ctx.origin + lag + 1;
    const double theta = v(V_th) - v(E_L);
    const bool fires = soft_threshold_fires(g, i, rest - theta, v(delta), v(rho), ctx, stamp);
    if (fires) {
      g.counters[i] = ctx.steps(v(t_ref));
      rest = v(V_reset) - v(E_L);
      ctx.spike(g, i, lag, release(g, i, ctx.nest_ms(stamp)));
    }
    const uint32_t column = g.first_input + uint32_t(i);
    v(I_stim) = in.current[column];
    v(I_stim_1) = in.current[column + g.size()];
    in.current[column] = in.current[column + g.size()] = 0.0;
    v(V_m) = rest + v(E_L);
  }

  // Tsodyks et al.'s resources from the last spike to this one at t ms, in NEST's order; the
  // released fraction u x, which the spike carries.
  static double release(NeuronGroup& g, size_t i, double t) {
    auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
    const double interval = t - v(t_last);
    v(t_last) = t;
    const double Puu = v(tau_fac) == 0.0 ? 0.0 : std::exp(-interval / v(tau_fac));
    const double Pyy = std::exp(-interval / v(tau_psc));
    const double Pzz = std::expm1(-interval / v(tau_rec));
    const double Pxy = (Pzz * v(tau_rec) - (Pyy - 1.0) * v(tau_psc)) / (v(tau_psc) - v(tau_rec));
    const double z = 1.0 - v(x) - v(y);
    v(u) *= Puu;
    v(x) += Pxy * v(y) - Pzz * z;
    v(y) *= Pyy;
    v(u) += v(U) * (1.0 - v(u));
    const double released = v(u) * v(x);
    v(x) -= released;
    v(y) += released;
    return released;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafTum2000);

}  // namespace ranvier
