// NEST 3.10's eprop_iaf_bsshslm_2020 and eprop_iaf_adapt_bsshslm_2020: the recurrent neurons of
// e-prop as Bellec et al. (2020) first had it, whose eprop_synapse_bsshslm_2020 synapses learn
// once per update interval (the kernel's eprop_update_interval). The neuron's history lags its
// time by two steps (NEST's shift: the generator's offset and the input delay); at each
// interval's first step it drops what no synapse will read and, with
// eprop_reset_neurons_on_update, resets; at its last it keeps the interval's firing-rate
// regularization. A spike resets by subtracting the threshold in the next step.
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
  regular_spike_arrival,
  sg_function,
  sg_height,
  sg_width,
  surrogate_gradient,
  learning_signal,
  flush_interval,  // spike_mechanism_variables() from here on
  n_common = flush_interval + 4
};
enum AdaptVar { adapt_beta = n_common, adapt_tau, adaptation, V_th_adapt };
enum Internal { P_v, P_i, P_z, P_adapt, n_internal };

constexpr int64_t history_shift = 2;  // NEST's offset_gen + delay_in_rec
constexpr int64_t signal_shift = 3;   // a learning signal's: delay_rec_out + delay_out_norm + delay_out_rec

template <bool Adapt>
class EpropIafBsshslm final : public Recurrent {
 public:
  const char* name() const override { return Adapt ? "eprop_iaf_adapt_bsshslm_2020" : "eprop_iaf_bsshslm_2020"; }
  std::optional<std::vector<std::string>> recordables() const override {
    std::vector<std::string> out{history_duration, "V_m", "learning_signal", "surrogate_gradient"};
    if (Adapt) out.insert(out.begin() + 1, {"adaptation", "V_th_adapt"});
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
                                 {"regular_spike_arrival", 1.0, "", true},
                                 {"surrogate_gradient_function", 0.0, "", false, surrogate_names},
                                 {"surrogate_gradient_height", 0.3, ""},
                                 {"surrogate_gradient_width", 1.0, "mV"},
                                 {"surrogate_gradient", 0.0, ""},
                                 {"learning_signal", 0.0, "pA"}};
      for (const Variable& m : spike_mechanism_variables()) v.push_back(m);
      if (Adapt)
        v.insert(
            v.end(),
            {{"adapt_beta", 1.0, ""}, {"adapt_tau", 10.0, "ms"}, {"adaptation", 0.0, ""}, {"V_th_adapt", -55.0, "mV"}});
      return v;
    }();
    return vars;
  }
  void on_set(NeuronGroup& g, size_t i, const SetContext& c) const override {
    if (c.sets("f_target")) g.vars[f_target][i] /= 1000.0;  // given in spikes/s, shown per ms
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
    if (!(v(sg_height) > 0)) throw bad_value("surrogate_gradient_height", v(sg_height), "> 0");
    if (!(v(sg_width) > 0)) throw bad_value("surrogate_gradient_width", v(sg_width), "> 0");
    validate_spike_mechanisms(g, i, flush_interval);
    if constexpr (Adapt) {
      if (!(v(adapt_beta) >= 0)) throw bad_value("adapt_beta", v(adapt_beta), ">= 0");
      if (!(v(adapt_tau) > 0)) throw bad_value("adapt_tau", v(adapt_tau), "> 0");
    }
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.counters.resize(g.size(), 0);
    static_cast<EpropState&>(*g.state).h = h;
    for (size_t i = 0; i < g.size(); ++i) {
      const double p_v = g.internals[P_v][i] = std::exp(-h / g.vars[tau_m][i]);
      g.internals[P_i][i] = g.vars[tau_m][i] / g.vars[C_m][i] * (1.0 - p_v);
      g.internals[P_z][i] = g.vars[regular_spike_arrival][i] != 0.0 ? 1.0 : 1.0 - p_v;
      if (Adapt) g.internals[P_adapt][i] = std::exp(-h / g.vars[adapt_tau][i]);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    EpropState& s = static_cast<EpropState&>(*g.state);
    const int64_t interval = ctx.eprop.update_interval;
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const int64_t t = ctx.origin + lag;
      const int64_t interval_step = (t - history_shift) % interval;  // negative before the first
      const InputRow in = ctx.row(lag);
      double *ex = in.excitatory + g.first_input, *inh = in.inhibitory + g.first_input,
             *current = in.current + g.first_input;
      for (size_t i = 0; i < g.size(); ++i) {
        const auto var = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
        EpropArchive& a = s.archives[i];
        int32_t& r = g.counters[i];
        double& z = s.z[i];
        const double el = var(E_L);
        double v = var(V_m) - el;
        if (interval_step == 0) {
          a.erase_used_regularization();
          a.erase_unread_intervals(interval);
          if (ctx.eprop.reset_on_update) {
            v = 0.0, r = 0, z = 0.0;
            if (Adapt) var(adaptation) = 0.0;
          }
        }
        if (r > 0) --r;
        const double z_in = ex[i] + inh[i];
        ex[i] = inh[i] = 0.0;
        const double v_th = var(V_th) - el;
        v = g.internals[P_i][i] * s.i_in[i] + g.internals[P_z][i] * z_in + g.internals[P_v][i] * v;
        v -= v_th * z;
        v = std::max(v, var(V_min) - el);
        double threshold = v_th;
        if constexpr (Adapt) {
          var(adaptation) = g.internals[P_adapt][i] * var(adaptation) + z;
          threshold = v_th + var(adapt_beta) * var(adaptation);
          var(V_th_adapt) = threshold + el;
        }
        z = 0.0;
        const double psi = surrogate(int(var(sg_function)), r, v, threshold, var(sg_height), var(sg_width));
        if (spike_or_flush(g, i, flush_interval, ctx, lag, v >= threshold && r == 0)) {
          ++a.spikes;
          z = 1.0;
          r = ctx.steps(var(t_ref));
        }
        a.append(t);
        if (a.indegree) a.history.back().surrogate_gradient = psi;
        if (interval_step == interval - 1) {
          if (a.indegree) {
            const double f_av = double(a.spikes) / double(interval);
            a.regularization.push_back({t + 1, var(c_reg) * (f_av - var(f_target) * ctx.h) / double(interval)});
          }
          a.spikes = 0;
        }
        const auto learned = a.at(t - signal_shift);
        var(learning_signal) = learned == a.history.end() ? 0.0 : learned->signal;
        var(surrogate_gradient) = psi;
        var(V_m) = v + el;
        s.i_in[i] = current[i] + var(I_e);
        current[i] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }

  Eprop variant() const override { return Eprop::bsshslm_2020; }
  int64_t shift() const override { return history_shift; }
  // A learning signal computed in step t goes to the history entry of step t - 2.
  void learn(NeuronGroup& g, size_t i, int64_t t, double signal) const override {
    EpropArchive& a = archive(g, i);
    for (auto it = a.at(t + 1 - signal_shift), end = a.at(t + 2 - signal_shift); it != end; ++it) it->signal += signal;
  }
  double interval_gradient(NeuronGroup& g, size_t i, const std::vector<int64_t>& isis, int64_t t_previous_update,
                           int64_t t_previous_trigger, double kappa, bool average,
                           const EpropSchedule& schedule) const override {
    EpropArchive& a = archive(g, i);
    const double p_v = g.internals[P_v][i], p_z = g.internals[P_z][i];
    const double p_adapt = Adapt ? g.internals[P_adapt][i] : 0.0, beta = Adapt ? g.vars[adapt_beta][i] : 0.0;
    double e_bar = 0.0, epsilon = 0.0, gradient = 0.0, sum_e = 0.0, z_bar = 0.0;
    int64_t t = t_previous_trigger;
    auto it = a.at(t);
    for (const int64_t isi : isis) {
      double z = 1.0;  // each presynaptic spike, then none until the next
      for (const int64_t end = t + isi; t < end; ++t, ++it) {
        const EpropEntry& entry = *a.required(it, t, g.gids[i]);
        z_bar = p_v * z_bar + p_z * z;
        double e;
        if constexpr (Adapt) {
          e = entry.surrogate_gradient * (z_bar - beta * epsilon);
          epsilon = p_adapt * epsilon + e;
        } else {
          e = entry.surrogate_gradient * z_bar;
        }
        e_bar = kappa * e_bar + (1.0 - kappa) * e;
        gradient += entry.signal * e_bar;
        sum_e += e;
        z = 0.0;
      }
    }
    gradient += a.regularization_at(t_previous_update + history_shift + schedule.update_interval) * sum_e;
    return average ? gradient / double(schedule.learning_window) : gradient;
  }
};

[[maybe_unused]] const bool registered = [] {
  static const EpropIafBsshslm<false> iaf;
  static const EpropIafBsshslm<true> iaf_adapt;
  NeuronModels& models = NeuronModels::instance();
  return models.add(iaf.name(), &iaf) && models.add(iaf_adapt.name(), &iaf_adapt);
}();

}  // namespace
}  // namespace ranvier
