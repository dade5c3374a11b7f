// Generalized leaky integrate-and-fire neuron with alpha-shaped synaptic currents (NEST's
// glif_psc; Teeter et al. 2018), as NEST 3.10 updates it. Three switches select the five GLIF
// models: spike_dependent_threshold (GLIF 2: a threshold component that jumps by th_spike_add
// at each spike and decays at th_spike_decay, and the reset V = voltage_reset_fraction V +
// voltage_reset_add), after_spike_currents (GLIF 3: currents that jump to asc_amps + asc_r
// times their value at each spike and decay at asc_decay) and adapting_threshold (GLIF 5: a
// threshold component driven by V_m at th_voltage_index, decaying at th_voltage_decay). The
// membrane and the synaptic currents are integrated exactly; the after-spike currents enter
// each step with their mean over it, the voltage component of the threshold with its exact
// solution for V_m linear in time. A spike needs V_m strictly above the threshold; V_m is then
// held for t_ref, during which the after-spike currents and the threshold keep their values.
// Values are absolute (mV) as NEST shows them; the step works relative to E_L.
// glif_psc_double_alpha (NEST's, after Teeter et al.'s double-alpha synapses) is the same neuron
// whose every port feeds two alpha currents: a fast one of time constant tau_syn_fast peaking at
// the weight, and a slow one of tau_syn_slow peaking at amp_slow times the weight.
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "models/propagators.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier {
namespace {

using namespace receptor_ports;

enum Var {
  V_m,
  V_th,
  g_m,
  E_L,
  C_m,
  t_ref,
  V_reset,
  th_spike_add,
  th_spike_decay,
  voltage_reset_fraction,
  voltage_reset_add,
  th_voltage_index,
  th_voltage_decay,
  spike_dependent_threshold,
  after_spike_currents,
  adapting_threshold,
  threshold_spike,
  threshold_voltage,
  threshold,
  ASCurrents_sum,
  I,
  I_syn,
  tau_minus
};
enum List { asc_init, asc_decay, asc_amps, asc_r, ASCurrents };
// Per neuron and after-spike current: its decay over a step, its mean over a step relative to
// its start, and what is left of it after t_ref (times asc_r).
enum AscState { asc_step, asc_mean, asc_refractory, n_asc_state };
// Per neuron; then per port P11 (= P22), P21, P31, P32 and the jump of y1 per unit weight.
enum Internal { P33, P30, spike_decay, spike_refractory_decay, voltage_decay, phi, index_ratio, n_fixed };
constexpr int per_port = 5;

template <bool double_alpha>
class GlifPsc final : public Ports<true> {
 public:
  const char* name() const override { return double_alpha ? "glif_psc_double_alpha" : "glif_psc"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{
        "V_m", "ASCurrents_sum", "I", "I_syn", "threshold", "threshold_spike", "threshold_voltage"};
  }
  const std::vector<Variable>& variables() const override {
    // NEST's defaults: GLIF 5 of the Allen Cell Types Database's cell 490626718
    static const std::vector<Variable> vars = {{"V_m", -78.85, "mV"},
                                               {"V_th", -51.68, "mV"},
                                               {"g", 9.43, "nS"},
                                               {"E_L", -78.85, "mV"},
                                               {"C_m", 58.72, "pF"},
                                               {"t_ref", 3.75, "ms"},
                                               {"V_reset", -78.85, "mV"},
                                               {"th_spike_add", 0.37, "mV"},
                                               {"th_spike_decay", 0.009, "1/ms"},
                                               {"voltage_reset_fraction", 0.2, ""},
                                               {"voltage_reset_add", 18.51, "mV"},
                                               {"th_voltage_index", 0.005, "1/ms"},
                                               {"th_voltage_decay", 0.09, "1/ms"},
                                               {"spike_dependent_threshold", 0.0, "", true},
                                               {"after_spike_currents", 0.0, "", true},
                                               {"adapting_threshold", 0.0, "", true},
                                               {"threshold_spike", 0.0, "mV"},
                                               {"threshold_voltage", 0.0, "mV"},
                                               {"threshold", -51.68, "mV"},
                                               {"ASCurrents_sum", 0.0, "pA"},
                                               {"I", 0.0, "pA"},
                                               {"I_syn", 0.0, "pA"},
                                               {"tau_minus", 20.0, "ms"}};
    return vars;
  }
  // NEST 3.10 takes asc_init but starts every neuron's ASCurrents at the built-in [0, 0]
  // (measured), so asc_init changes nothing here either.
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"asc_init", {0.0, 0.0}, "pA"},
                                                    {"asc_decay", {0.003, 0.1}, "1/ms"},
                                                    {"asc_amps", {-9.18, -198.94}, "pA"},
                                                    {"asc_r", {1.0, 1.0}, ""},
                                                    {"ASCurrents", {0.0, 0.0}, "pA"}};
    return lists;
  }
  const std::vector<ListParameter>& list_parameters() const override {
    // NEST: no count, no I_syn_k
    static const std::vector<ListParameter> lists =
        double_alpha ? std::vector<ListParameter>{{"tau_syn_fast", {2.0}, "ms", "", ""},
                                                  {"tau_syn_slow", {6.0}, "ms", "", ""},
                                                  {"amp_slow", {0.3}, "", "", ""}}
                     : std::vector<ListParameter>{{"tau_syn", {2.0}, "ms", "", ""}};
    return lists;
  }
  // A port's slow current needs its time constant and amplitude (NEST reads past their end).
  void validate_lists(const ListKind& kind, const NeuronGroup* g) const override {
    Ports<true>::validate_lists(kind, g);
    if (!double_alpha) return;
    const size_t n = kind.at("tau_syn_fast").size();
    for (const char* list : {"tau_syn_slow", "amp_slow"})
      if (kind.at(list).size() != n)
        throw bad_value(list, listed(kind.at(list)), "as long as tau_syn_fast (" + std::to_string(n) + ")");
  }

  // State a model's mechanisms lack cannot be set (NEST).
  void on_set(NeuronGroup& g, size_t i, const SetContext& set) const override {
    const auto has = [&](Var k) { return g.vars[k][i] != 0.0; };
    if (set.sets("ASCurrents") && !has(after_spike_currents))
      throw bad_value("ASCurrents", listed(g.list(ASCurrents, i)), "set only with after_spike_currents = True");
    if (set.sets("ASCurrents") && g.list(ASCurrents, i).size() != g.list(asc_decay, i).size())
      throw bad_value("ASCurrents", listed(g.list(ASCurrents, i)),
                      "as long as asc_decay (" + std::to_string(g.list(asc_decay, i).size()) + ")");
    if (set.sets("threshold_spike") && !has(spike_dependent_threshold))
      throw bad_value("threshold_spike", g.vars[threshold_spike][i], "set only with spike_dependent_threshold = True");
    if (set.sets("threshold_voltage") && !has(adapting_threshold))
      throw bad_value("threshold_voltage", g.vars[threshold_voltage][i], "set only with adapting_threshold = True");
  }

  void validate(NeuronGroup& g, size_t i) const override {
    const auto v = [&](Var k) { return g.vars[k][i]; };
    const bool spike = v(spike_dependent_threshold) != 0, asc = v(after_spike_currents) != 0,
               voltage = v(adapting_threshold) != 0;
    // the five GLIF models are every setting of the switches but adapting_threshold without both others
    const auto shown = [](bool b) { return std::string(b ? "True" : "False"); };
    if (voltage && !(spike && asc))
      throw BadParameterError(
          "the switches must select one of the five GLIF models (adapting_threshold needs "
          "spike_dependent_threshold and after_spike_currents), got spike_dependent_threshold = " +
          shown(spike) + ", after_spike_currents = " + shown(asc) + ", adapting_threshold = True");
    if (asc) {
      const size_t n = g.list(asc_decay, i).size();
      for (const List k : {asc_init, asc_amps, asc_r})
        if (g.list(k, i).size() != n)
          throw bad_value(list_variables()[k].name, listed(g.list(k, i)),
                          "as long as asc_decay (" + std::to_string(n) + ")");
      for (double k : g.list(asc_decay, i))
        if (!(k > 0)) throw bad_value("asc_decay", listed(g.list(asc_decay, i)), "> 0 throughout");
      for (double r : g.list(asc_r, i))
        if (!(r >= 0 && r <= 1)) throw bad_value("asc_r", listed(g.list(asc_r, i)), "within [0, 1] throughout");
    }
    if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
    for (const Var k : {C_m, g_m, t_ref, tau_minus})
      if (!(v(k) > 0)) throw bad_value(variables()[k].name, v(k), "> 0");
    if (voltage && !(v(th_voltage_decay) > 0)) throw bad_value("th_voltage_decay", v(th_voltage_decay), "> 0");
    // NEST divides by th_voltage_decay - g / C_m
    if (voltage && v(th_voltage_decay) == v(g_m) / v(C_m))
      throw bad_value("th_voltage_decay", v(th_voltage_decay), "different from g / C_m");
    if (spike && !(v(th_spike_decay) > 0)) throw bad_value("th_spike_decay", v(th_spike_decay), "> 0");
    if (spike && !(v(voltage_reset_fraction) >= 0 && v(voltage_reset_fraction) <= 1))
      throw bad_value("voltage_reset_fraction", v(voltage_reset_fraction), "within [0, 1]");
  }

  void calibrate(NeuronGroup& g, double h) const override {
    const Receptors& r = receptors(g);
    g.internals.assign(n_fixed + per_port * r.count(), std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    g.scratch.resize(g.size());
    g.list_state.resize(n_asc_state, std::vector<std::vector<double>>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      const auto v = [&](Var k) { return g.vars[k][i]; };
      const auto set = [&](size_t k, double value) { g.internals[k][i] = value; };
      const double tm = v(C_m) / v(g_m);
      set(P33, std::exp(-h / tm));
      set(P30, -std::expm1(-h / tm) * tm / v(C_m));
      set(spike_decay, std::exp(-v(th_spike_decay) * h));
      set(spike_refractory_decay, std::exp(-v(th_spike_decay) * v(t_ref)));
      set(voltage_decay, std::exp(-v(th_voltage_decay) * h));
      set(phi, v(th_voltage_index) / (v(th_voltage_decay) - 1.0 / tm));
      set(index_ratio, v(th_voltage_index) / v(th_voltage_decay));
      for (size_t q = 0; q < r.count(); ++q) {
        const double ts = r.tau_syn[q];
        set(n_fixed + per_port * q, std::exp(-h / ts));
        set(n_fixed + per_port * q + 1, h * std::exp(-h / ts));
        set(n_fixed + per_port * q + 2, propagator_alpha_current(ts, tm, v(C_m), h));
        set(n_fixed + per_port * q + 3, propagator_exp_current(ts, tm, v(C_m), h));
        set(n_fixed + per_port * q + 4, M_E / ts * r.peak_of(q));  // an alpha current of weight w peaks at w
      }
      // the after-spike currents follow asc_decay's length, keeping their values (NEST keeps
      // ASCurrents' length and leaves out the parameters' further entries)
      const std::vector<double>& k = g.list(asc_decay, i);
      if (v(after_spike_currents) != 0) g.lists[ASCurrents][i].resize(k.size(), 0.0);
      for (auto& rates : g.list_state) rates[i].assign(k.size(), 0.0);
      for (size_t a = 0; a < k.size() && a < g.list(asc_r, i).size(); ++a) {
        g.list_state[asc_step][i][a] = std::exp(-k[a] * h);
        g.list_state[asc_mean][i][a] = -std::expm1(-k[a] * h) / (k[a] * h);
        g.list_state[asc_refractory][i][a] = g.list(asc_r, i)[a] * std::exp(-k[a] * v(t_ref));
      }
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const size_t n = g.size();
    Receptors& ports = receptors(g);
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      double* current = in.current + g.first_input;
      for (size_t i = 0; i < n; ++i) step(g, ctx, i, lag);
      for (size_t port = 0; port < ports.ports(); ++port) {  // the PSCs move, then take the step's spikes
        const PortInput w(g, in, uint32_t(port));
        for (size_t i = 0; i < n; ++i) g.scratch[i] = w.take(i);
        for (size_t q = port * ports.per_port; q < (port + 1) * ports.per_port; ++q) {
          const size_t k = n_fixed + per_port * q;
          double *y1 = ports.derivative.data() + q * n, *y2 = ports.current.data() + q * n;
          for (size_t i = 0; i < n; ++i) {
            y2[i] = g.internals[k + 1][i] * y1[i] + g.internals[k][i] * y2[i];
            y1[i] = y1[i] * g.internals[k][i] + g.internals[k + 4][i] * g.scratch[i];
          }
        }
      }
      double* i_ext = g.var(I);
      for (size_t i = 0; i < n; ++i) i_ext[i] = current[i], current[i] = 0.0;  // acts from the next step on
      ctx.after_step(g, lag);
    }
  }

 protected:
  // Double alpha: each port's fast current (peak 1 per unit weight), then its slow one.
  void currents(const ListKind& kind, Receptors& r) const override {
    if (!double_alpha) return Ports<true>::currents(kind, r);
    const auto &fast = kind.at("tau_syn_fast"), &slow = kind.at("tau_syn_slow"), &amp = kind.at("amp_slow");
    r.per_port = 2;
    for (size_t q = 0; q < fast.size(); ++q) {
      r.tau_syn.insert(r.tau_syn.end(), {fast[q], slow[q]});
      r.peak.insert(r.peak.end(), {1.0, amp[q]});
    }
  }

 private:
  // Neuron i's membrane, after-spike currents and threshold over one step, and its spike.
  static void step(NeuronGroup& g, UpdateContext& ctx, size_t i, int lag) {
    auto& v = g.vars;
    const auto p = [&](size_t k) { return g.internals[k][i]; };
    const double el = v[E_L][i], v_old = v[V_m][i] - el, th_inf = v[V_th][i] - el;
    int32_t& refractory = g.counters[i];
    if (refractory > 0) {
      --refractory;
      v[threshold][i] = v[threshold_spike][i] + v[threshold_voltage][i] + th_inf + el;
      return;  // V_m held
    }
    const bool spike_threshold = v[spike_dependent_threshold][i] != 0;
    if (spike_threshold) v[threshold_spike][i] *= p(spike_decay);
    std::vector<double>& asc = g.lists[ASCurrents][i];
    double asc_sum = 0.0;
    if (v[after_spike_currents][i] != 0)
      for (size_t a = 0; a < asc.size(); ++a) {
        asc_sum += g.list_state[asc_mean][i][a] * asc[a];
        asc[a] *= g.list_state[asc_step][i][a];
      }
    v[ASCurrents_sum][i] = asc_sum;
    double u = v_old * p(P33) + (v[I][i] + asc_sum) * p(P30);
    const Receptors& ports = receptors(g);
    double i_syn = 0.0;
    for (size_t q = 0; q < ports.count(); ++q) {
      const size_t k = n_fixed + per_port * q, at = q * g.size() + i;
      u += p(k + 2) * ports.derivative[at] + p(k + 3) * ports.current[at];
      i_syn += ports.current[at];
    }
    v[I_syn][i] = i_syn;
    if (v[adapting_threshold][i] != 0) {  // exact for V_m relaxing towards beta
      const double beta = (v[I][i] + asc_sum) / v[g_m][i], ratio = p(index_ratio);
      const double drive = p(phi) * (v_old - beta);
      v[threshold_voltage][i] =
          drive * p(P33) + p(voltage_decay) * (v[threshold_voltage][i] - drive - ratio * beta) + ratio * beta;
    }
    double theta = v[threshold_spike][i] + v[threshold_voltage][i] + th_inf;
    if (u > theta) {
      refractory = ctx.steps(v[t_ref][i]);
      if (v[after_spike_currents][i] != 0)
        for (size_t a = 0; a < asc.size(); ++a)
          asc[a] = g.list(asc_amps, i)[a] + asc[a] * g.list_state[asc_refractory][i][a];
      if (spike_threshold) {
        u = v[voltage_reset_fraction][i] * v_old + v[voltage_reset_add][i];
        v[threshold_spike][i] = v[threshold_spike][i] * p(spike_refractory_decay) + v[th_spike_add][i];
        theta = v[threshold_spike][i] + v[threshold_voltage][i] + th_inf;
      } else {
        u = v[V_reset][i] - el;
      }
      ctx.spike(g, i, lag);
    }
    v[threshold][i] = theta + el;
    v[V_m][i] = u + el;
  }
};

}  // namespace

using GlifPscSingle = GlifPsc<false>;
using GlifPscDoubleAlpha = GlifPsc<true>;
RANVIER_REGISTER_NEURON_MODEL(GlifPscSingle);
RANVIER_REGISTER_NEURON_MODEL(GlifPscDoubleAlpha);

}  // namespace ranvier
