// NEST 3.10's eprop_readout_bsshslm_2020: the readout of e-prop as Bellec et al. (2020) first had
// it. Its readout signal is its potential one step later (NEST's delay_out_norm); with the
// cross-entropy loss it is exp(potential) normalized by the sum over the readouts it takes
// rates from at receptor 1 (readout_signal), to which it sends its own; its target comes at
// receptor 2 (target_signal). The signals count within the learning window at the end of each
// update interval only; its history lags its time by three steps (NEST's shift).
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
  V_min,
  I_e,
  loss,
  regular_spike_arrival,
  error_signal,
  readout_signal,
  readout_signal_unnorm,
  target_signal
};
enum Internal { P_v, P_i, P_z, n_internal };
enum Port : uint32_t { spikes = spike_port, readouts = first_rate_port, target = second_rate_port };
enum Loss { mean_squared_error, cross_entropy };

constexpr int64_t history_shift = 3;  // NEST's offset_gen + delay_in_rec + delay_rec_out
constexpr int64_t delay_out_norm = 1;

class EpropReadoutBsshslm final : public Readout {
 public:
  const char* name() const override { return "eprop_readout_bsshslm_2020"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{history_duration,        "error_signal",  "readout_signal",
                                    "readout_signal_unnorm", "target_signal", "V_m"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", 0.0, "mV"},
                                               {"E_L", 0.0, "mV"},
                                               {"C_m", 250.0, "pF"},
                                               {"tau_m", 10.0, "ms"},
                                               {"V_min", lowest, "mV"},
                                               {"I_e", 0.0, "pA"},
                                               {"loss", 0.0, "", false, {"mean_squared_error", "cross_entropy"}},
                                               {"regular_spike_arrival", 1.0, "", true},
                                               {"error_signal", 0.0, "mV"},
                                               {"readout_signal", 0.0, "mV"},
                                               {"readout_signal_unnorm", 0.0, "mV"},
                                               {"target_signal", 0.0, "mV"}};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[C_m][i] > 0)) throw bad_value("C_m", g.vars[C_m][i], "> 0");
    if (!(g.vars[tau_m][i] > 0)) throw bad_value("tau_m", g.vars[tau_m][i], "> 0");
  }
  std::vector<std::pair<std::string, uint32_t>> receptor_types() const override {
    return {{"readout_signal", readouts}, {"target_signal", target}};
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    static_cast<EpropState&>(*g.state).h = h;
    for (size_t i = 0; i < g.size(); ++i) {
      const double p_v = g.internals[P_v][i] = std::exp(-h / g.vars[tau_m][i]);
      g.internals[P_i][i] = g.vars[tau_m][i] / g.vars[C_m][i] * (1.0 - p_v);
      g.internals[P_z][i] = g.vars[regular_spike_arrival][i] != 0.0 ? 1.0 : 1.0 - p_v;
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    EpropState& s = static_cast<EpropState&>(*g.state);
    const int64_t interval = ctx.eprop.update_interval;
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const int64_t t = ctx.origin + lag;
      const int64_t interval_step = (t - history_shift) % interval;
      const int64_t signal_step = (t - history_shift - delay_out_norm) % interval;
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        const auto var = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
        const auto take = [&](uint32_t port) {
          const size_t c = g.input(i, port);
          const double value = in.excitatory[c] + in.inhibitory[c];
          in.excitatory[c] = in.inhibitory[c] = 0.0;
          return value;
        };
        EpropArchive& a = s.archives[i];
        const double el = var(E_L);
        double v = var(V_m) - el;
        if (interval_step == 0) {
          a.erase_unread_intervals(interval);
          if (ctx.eprop.reset_on_update) v = 0.0;
        }
        // the other readouts' signals in the step they arrive in, the target (a generator's) a
        // step later, as NEST's readouts take them (measured; models/eprop_readout.cpp)
        const double z_in = take(spikes), others = take(readouts), goal = s.goal[i];
        s.goal[i] = take(target);
        v = g.internals[P_i][i] * s.i_in[i] + g.internals[P_z][i] * z_in + g.internals[P_v][i] * v;
        v = std::max(v, var(V_min) - el);
        // the readout signal of the last step's potential
        double readout;
        if (var(loss) == cross_entropy) {
          readout = var(readout_signal_unnorm) / (others + var(readout_signal_unnorm));
          var(readout_signal_unnorm) = std::exp(v + el);
        } else {
          readout = var(readout_signal_unnorm);
          var(readout_signal_unnorm) = v + el;
        }
        const bool learning = signal_step >= interval - ctx.eprop.learning_window;
        var(readout_signal) = learning ? readout : 0.0;
        var(target_signal) = learning ? goal : 0.0;
        var(error_signal) = learning ? readout - goal : 0.0;
        s.sent.at(size_t(lag) * readout_values + rate_value, i) = var(readout_signal_unnorm);
        s.sent.at(size_t(lag) * readout_values + learning_value, i) = var(error_signal);
        a.append(t - delay_out_norm);
        if (a.indegree) a.history.back().signal = var(error_signal);
        var(V_m) = v + el;
        const size_t c = g.input(i);
        s.i_in[i] = in.current[c] + var(I_e);
        in.current[c] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }

  bool sends(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::learning_signal || kind == SecondaryEvent::delayed_rate;
  }

  Eprop variant() const override { return Eprop::bsshslm_2020; }
  int64_t shift() const override { return history_shift; }
  bool recurrent() const override { return false; }
  double interval_gradient(NeuronGroup& g, size_t i, const std::vector<int64_t>& isis, int64_t,
                           int64_t t_previous_trigger, double, bool average,
                           const EpropSchedule& schedule) const override {
    EpropArchive& a = archive(g, i);
    const double p_v = g.internals[P_v][i], p_z = g.internals[P_z][i];
    double gradient = 0.0, z_bar = 0.0;
    int64_t t = t_previous_trigger;
    auto it = a.at(t);
    for (const int64_t isi : isis) {
      double z = 1.0;  // each presynaptic spike, then none until the next
      for (const int64_t end = t + isi; t < end; ++t, ++it) {
        const EpropEntry& entry = *a.required(it, t, g.gids[i]);
        z_bar = p_v * z_bar + p_z * z;
        gradient += entry.signal * z_bar;
        z = 0.0;
      }
    }
    return average ? gradient / double(schedule.learning_window) : gradient;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(EpropReadoutBsshslm);

}  // namespace ranvier
