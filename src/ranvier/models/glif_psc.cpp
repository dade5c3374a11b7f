// Generalized leaky integrate-and-fire neuron with alpha-shaped synaptic currents (NEST's
// glif_psc; Teeter et al. 2018), as NEST 3.10 updates it: the GLIF mechanisms of
// glif_common.hpp, with the membrane and the synaptic currents integrated exactly.
// glif_psc_double_alpha (NEST's, after Teeter et al.'s double-alpha synapses) is the same neuron
// whose every port feeds two alpha currents: a fast one of time constant tau_syn_fast peaking at
// the weight, and a slow one of tau_syn_slow peaking at amp_slow times the weight.
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "models/glif_common.hpp"
#include "models/propagators.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier {
namespace {

using namespace receptor_ports;
using namespace glif;

enum Own { I_syn = n_common, tau_minus, tau_minus_triplet };
// After glif's: P30; then per current P11 (= P22), P21, P31, P32 and the jump of y1 per unit weight.
enum OwnInternal { P30 = glif::n_fixed, first_current };
constexpr int per_current = 5;

template <bool double_alpha>
class GlifPsc final : public Ports<true> {
 public:
  const char* name() const override { return double_alpha ? "glif_psc_double_alpha" : "glif_psc"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{
        "V_m", "ASCurrents_sum", "I", "I_syn", "threshold", "threshold_spike", "threshold_voltage"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = common_variables("g");
      v.insert(v.end(), {{"I_syn", 0.0, "pA"}, {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}});
      return v;
    }();
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = common_lists();
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

  void on_set(NeuronGroup& g, size_t i, const SetContext& set) const override { glif::on_set(g, i, set); }
  void validate(NeuronGroup& g, size_t i) const override {
    glif::validate(g, i, variables());
    if (!(g.vars[tau_minus][i] > 0)) throw bad_value("tau_minus", g.vars[tau_minus][i], "> 0");
  }

  void calibrate(NeuronGroup& g, double h) const override {
    const Receptors& r = receptors(g);
    g.internals.assign(first_current + per_current * r.count(), std::vector<double>(g.size()));
    g.scratch.resize(g.size());
    glif::calibrate(g, h);
    for (size_t i = 0; i < g.size(); ++i) {
      const auto v = [&](Var k) { return g.vars[k][i]; };
      const auto set = [&](size_t k, double value) { g.internals[k][i] = value; };
      const double tm = v(C_m) / v(g_m);
      set(P30, -std::expm1(-h / tm) * tm / v(C_m));
      for (size_t q = 0; q < r.count(); ++q) {
        const double ts = r.tau_syn[q];
        set(first_current + per_current * q, std::exp(-h / ts));
        set(first_current + per_current * q + 1, h * std::exp(-h / ts));
        set(first_current + per_current * q + 2, propagator_alpha_current(ts, tm, v(C_m), h));
        set(first_current + per_current * q + 3, propagator_exp_current(ts, tm, v(C_m), h));
        set(first_current + per_current * q + 4, M_E / ts * r.peak_of(q));  // an alpha current of weight w peaks at w
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
          const size_t k = first_current + per_current * q;
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
    const double el = v[E_L][i], v_old = v[V_m][i] - el;
    if (g.counters[i] > 0) {
      --g.counters[i];
      v[threshold][i] = theta(g, i) + el;
      return;  // V_m held
    }
    const double asc_sum = decay_mechanisms(g, i);
    double u = v_old * p(potential_decay) + (v[I][i] + asc_sum) * p(P30);
    const Receptors& ports = receptors(g);
    double i_syn = 0.0;
    for (size_t q = 0; q < ports.count(); ++q) {
      const size_t k = first_current + per_current * q, at = q * g.size() + i;
      u += p(k + 2) * ports.derivative[at] + p(k + 3) * ports.current[at];
      i_syn += ports.current[at];
    }
    v[I_syn][i] = i_syn;
    adapt_threshold(g, i, v_old, asc_sum);
    if (u > theta(g, i)) {
      u = fire(g, i, v_old, ctx.steps(v[t_ref][i]));
      ctx.spike(g, i, lag);
    }
    v[threshold][i] = theta(g, i) + el;
    v[V_m][i] = u + el;
  }
};

using GlifPscSingle = GlifPsc<false>;
using GlifPscDoubleAlpha = GlifPsc<true>;

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GlifPscSingle);
RANVIER_REGISTER_NEURON_MODEL(GlifPscDoubleAlpha);

}  // namespace ranvier
