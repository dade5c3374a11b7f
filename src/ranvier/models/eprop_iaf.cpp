// NEST 3.10's recurrent e-prop neurons (Bellec et al. 2020): leaky integrate-and-fire neurons
// whose incoming eprop_synapses learn from the learning signals of readout neurons.
// - eprop_iaf: input current integrated exactly over the step, reset by subtracting the threshold;
// - eprop_iaf_adapt: with a threshold that adapts to the neuron's spikes;
// - eprop_iaf_psc_delta, eprop_iaf_psc_delta_adapt: delta synapses, a reset potential and an
//   absolute refractory period during which input is lost (or kept, with refractory_input).
// Every step appends the neuron's surrogate gradient and firing-rate regularization to its e-prop
// history; learning signals arrive there from the readouts (kernel/coupling.hpp).
#include <algorithm>
#include <cmath>

#include "models/eprop_neuron.hpp"

namespace ranvier {
namespace {

using namespace eprop;

enum Var {
  V_m,
  E_L,
  C_m,
  tau_m,
  t_ref,
  V_th,
  V_min,
  I_e,
  c_reg,
  f_target,
  sg_function,
  sg_height,
  sg_width,
  kappa,
  kappa_reg,
  surrogate_gradient,
  learning_signal,
  cutoff,
  flush_interval,  // spike_mechanism_variables() from here on
  n_common = flush_interval + 4
};
// after the common ones: an adaptive neuron's, then a delta neuron's
enum AdaptVar { adapt_beta = n_common, adapt_tau, adaptation, V_th_adapt, n_adapt };
enum Internal { P_v, P_i, P_adapt, n_internal };

template <bool Adapt, bool Delta>
class EpropIaf final : public Recurrent {
  static constexpr int V_reset = Adapt ? n_adapt : n_common;
  static constexpr int refractory_input = V_reset + 1;

 public:
  explicit EpropIaf(const char* name) : name_(name) {}
  const char* name() const override { return name_; }
  std::optional<std::vector<std::string>> recordables() const override {
    std::vector<std::string> out{history_duration, "V_m", "learning_signal", "surrogate_gradient"};
    if (Adapt) out.insert(out.end(), {"adaptation", "V_th_adapt"});
    return out;
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = {{"V_m", -70.0, "mV"},
                                 {"E_L", -70.0, "mV"},
                                 {"C_m", 250.0, "pF"},
                                 {"tau_m", 10.0, "ms"},
                                 {"t_ref", 2.0, "ms"},
                                 {"V_th", -55.0, "mV"},
                                 {"V_min", lowest, "mV"},
                                 {"I_e", 0.0, "pA"},
                                 {"c_reg", 0.0, ""},
                                 {"f_target", 0.01, "1/ms"},
                                 {"surrogate_gradient_function", 0.0, "", false, surrogate_names},
                                 {"surrogate_gradient_height", 0.3, ""},
                                 {"surrogate_gradient_width", 1.0, "mV"},
                                 {"kappa", 0.97, ""},
                                 {"kappa_reg", 0.97, ""},
                                 {"surrogate_gradient", 0.0, ""},
                                 {"learning_signal", 0.0, "pA"},
                                 cutoff_variable};
      for (const Variable& m : spike_mechanism_variables()) v.push_back(m);
      if (Adapt)
        v.insert(
            v.end(),
            {{"adapt_beta", 1.0, ""}, {"adapt_tau", 10.0, "ms"}, {"adaptation", 0.0, ""}, {"V_th_adapt", -55.0, "mV"}});
      if (Delta) v.insert(v.end(), {{"V_reset", -70.0, "mV"}, {"refractory_input", 0.0, "", true}});
      return v;
    }();
    return vars;
  }

  // NEST takes f_target in spikes/s and shows it in spikes/ms; an adaptive threshold follows
  // a new adaptation; a new offset restarts ignore_and_spike's count.
  void on_set(NeuronGroup& g, size_t i, const SetContext& c) const override {
    if (c.sets("f_target")) g.vars[f_target][i] /= 1000.0;
    if (Adapt && (c.sets("adaptation") || c.sets("adapt_beta") || c.sets("V_th")))
      g.vars[V_th_adapt][i] = g.vars[V_th][i] + g.vars[adapt_beta][i] * g.vars[adaptation][i];
    if (c.sets("ignore_and_spike_offset")) static_cast<EpropState&>(*g.state).steps_to_spike[i] = -1;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    const auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(c_reg) >= 0)) throw bad_value("c_reg", v(c_reg), ">= 0");
    if (!(v(f_target) >= 0)) throw bad_value("f_target", v(f_target), ">= 0");
    if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(V_th) >= v(V_min))) throw bad_value("V_th", v(V_th), ">= V_min");
    for (const Var k : {kappa, kappa_reg})
      if (!(v(k) >= 0 && v(k) <= 1)) throw bad_value(variables()[k].name, v(k), "in [0, 1]");
    if (!(v(sg_height) > 0)) throw bad_value("surrogate_gradient_height", v(sg_height), "> 0");
    if (!(v(sg_width) > 0)) throw bad_value("surrogate_gradient_width", v(sg_width), "> 0");
    if (!(v(cutoff) >= 0)) throw bad_value("eprop_isi_trace_cutoff", v(cutoff), ">= 0");
    validate_spike_mechanisms(g, i, flush_interval);
    if constexpr (Adapt) {
      if (!(v(adapt_beta) >= 0)) throw bad_value("adapt_beta", v(adapt_beta), ">= 0");
      if (!(v(adapt_tau) > 0)) throw bad_value("adapt_tau", v(adapt_tau), "> 0");
    }
    if constexpr (Delta) {
      if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
      if (!(v(V_reset) >= v(V_min))) throw bad_value("V_reset", v(V_reset), ">= V_min");
    }
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    EpropState& s = static_cast<EpropState&>(*g.state);
    s.h = h;
    for (size_t i = 0; i < g.size(); ++i) {
      g.internals[P_v][i] = std::exp(-h / g.vars[tau_m][i]);
      g.internals[P_i][i] = g.vars[tau_m][i] / g.vars[C_m][i] * (1.0 - g.internals[P_v][i]);
      if (Adapt) g.internals[P_adapt][i] = std::exp(-h / g.vars[adapt_tau][i]);
      s.archives[i].cutoff = cutoff_steps(g.vars[cutoff][i], h);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    EpropState& s = static_cast<EpropState&>(*g.state);
    const double h = ctx.h;
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const int64_t t = ctx.origin + lag;
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      for (size_t i = 0; i < g.size(); ++i) {
        const auto var = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
        const double el = var(E_L), p_v = g.internals[P_v][i], p_i = g.internals[P_i][i];
        const double z_in = ex[i] + inh[i];
        ex[i] = inh[i] = 0.0;
        int32_t& r = g.counters[i];
        double v = var(V_m) - el, v_th = var(V_th) - el;
        const double v_min = var(V_min) - el;
        double& z = s.z[i];
        if constexpr (Delta) {
          if (r == 0) {
            v = p_i * (s.i_in[i] + var(I_e)) + p_v * v + z_in;
            if (var(refractory_input) != 0.0 && s.refractory_spikes[i] != 0.0) {
              v += s.refractory_spikes[i];
              s.refractory_spikes[i] = 0.0;
            }
            v = std::max(v, v_min);
            if constexpr (Adapt) adapt(g, i, z);
          } else {
            if (var(refractory_input) != 0.0) s.refractory_spikes[i] += z_in * std::exp(-r * h / var(tau_m));
            --r;
          }
        } else {
          if (r > 0) --r;
          v = p_i * s.i_in[i] + z_in + p_v * v;
          v = std::max(v, v_min);
          if constexpr (Adapt) adapt(g, i, z);
        }
        if constexpr (Adapt) {  // relative to E_L, as NEST compares
          v_th += var(adapt_beta) * var(adaptation);
          var(V_th_adapt) = v_th + el;
        }
        z = 0.0;
        const double psi = surrogate(int(var(sg_function)), r, v, v_th, var(sg_height), var(sg_width));
        if (spike_or_flush(g, i, flush_interval, ctx, lag, Delta ? v >= v_th : v >= v_th && r == 0)) {
          z = 1.0;
          if constexpr (Delta) {
            v = var(V_reset) - el;
          } else {
            v -= (var(V_th) - el) * z;
          }
          r = ctx.steps(var(t_ref));
        }
        EpropArchive& a = s.archives[i];
        a.append(t);
        if (a.indegree) {
          EpropEntry& entry = a.history.back();
          entry.surrogate_gradient = psi;
          a.firing_rate = var(kappa_reg) * a.firing_rate + (1.0 - var(kappa_reg)) * z / h;
          entry.firing_rate_reg = var(c_reg) * (a.firing_rate - var(f_target) * h);
        }
        // a readout's error of step t - 1, which reached the history entry of step t - 2
        const auto learned = a.at(t - 2);
        var(learning_signal) = learned == a.history.end() ? 0.0 : learned->signal;
        var(surrogate_gradient) = psi;
        var(V_m) = v + el;
        s.i_in[i] = current[i] + (Delta ? 0.0 : var(I_e));
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }

  // NEST adds a learning signal computed in step t to the history entry of step t - 1.
  void learn(NeuronGroup& g, size_t i, int64_t t, double signal) const override {
    EpropArchive& a = archive(g, i);
    for (auto it = a.at(t - 1), end = a.at(t); it != end; ++it) it->signal += signal;
  }
  void gradient(NeuronGroup& g, size_t i, double* trace, double& w, const WeightOptimizer& optimizer, int64_t t_spike,
                bool flush) const override {
    const double p_v = g.internals[P_v][i], k = g.vars[kappa][i], k_reg = g.vars[kappa_reg][i];
    const double p_adapt = Adapt ? g.internals[P_adapt][i] : 0.0, beta = Adapt ? g.vars[adapt_beta][i] : 0.0;
    eprop_gradient(
        archive(g, i), g.gids[i], trace, w, optimizer, t_spike, flush,
        [&](const EpropEntry& entry, double z) {
          trace[z_bar] = p_v * trace[z_bar] + z;
          double e;
          if constexpr (Adapt) {
            e = entry.surrogate_gradient * (trace[z_bar] - beta * trace[epsilon]);
            trace[epsilon] = p_adapt * trace[epsilon] + e;
          } else {
            e = entry.surrogate_gradient * trace[z_bar];
          }
          trace[e_bar] = k * trace[e_bar] + e;
          trace[e_bar_reg] = k_reg * trace[e_bar_reg] + (1.0 - k_reg) * e;
          return entry.signal * trace[e_bar] + entry.firing_rate_reg * trace[e_bar_reg];
        },
        [&](double steps) {
          trace[z_bar] *= std::pow(p_v, steps);
          trace[e_bar] *= std::pow(k, steps);
          trace[e_bar_reg] *= std::pow(k_reg, steps);
          if (Adapt) trace[epsilon] *= std::pow(p_adapt, steps);
        });
  }

 private:
  const char* name_;
  // The adaptation after the last step's spike z.
  static void adapt(NeuronGroup& g, size_t i, double z) {
    g.vars[adaptation][i] = g.internals[P_adapt][i] * g.vars[adaptation][i] + z;
  }
};

[[maybe_unused]] const bool registered = [] {
  static const EpropIaf<false, false> iaf("eprop_iaf");
  static const EpropIaf<true, false> iaf_adapt("eprop_iaf_adapt");
  static const EpropIaf<false, true> psc_delta("eprop_iaf_psc_delta");
  static const EpropIaf<true, true> psc_delta_adapt("eprop_iaf_psc_delta_adapt");
  NeuronModels& models = NeuronModels::instance();
  return models.add(iaf.name(), &iaf) && models.add(iaf_adapt.name(), &iaf_adapt) &&
         models.add(psc_delta.name(), &psc_delta) && models.add(psc_delta_adapt.name(), &psc_delta_adapt);
}();

}  // namespace
}  // namespace ranvier
