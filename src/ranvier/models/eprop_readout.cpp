// NEST 3.10's eprop_readout: a leaky integrator whose potential is the network's readout
// signal. It takes spikes (and currents) at receptor 0, and through rate_connection_delayed a
// learning window at receptor 1 and a target signal at receptor 2 (a step_rate_generator's
// rates, which NEST's generators send at every step). Its error signal, readout
// minus target (all three times the window), goes into its e-prop history, from which its
// incoming eprop_synapses learn, and through eprop_learning_signal_connection to the recurrent
// neurons it teaches (kernel/coupling.hpp).
#include <algorithm>
#include <cmath>

#include "models/eprop_neuron.hpp"

namespace ranvier {
namespace {

using namespace eprop;

enum Var { V_m, E_L, C_m, tau_m, V_min, I_e, error_signal, readout_signal, target_signal, cutoff };
enum Internal { P_v, P_i, n_internal };
enum Port : uint32_t { spikes = spike_port, learning_window = first_rate_port, target = second_rate_port };

class EpropReadout final : public Readout {
 public:
  const char* name() const override { return "eprop_readout"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{history_duration, "error_signal", "readout_signal", "target_signal", "V_m"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {
        {"V_m", 0.0, "mV"},           {"E_L", 0.0, "mV"}, {"C_m", 250.0, "pF"},        {"tau_m", 10.0, "ms"},
        {"V_min", lowest, "mV"},      {"I_e", 0.0, "pA"}, {"error_signal", 0.0, "mV"}, {"readout_signal", 0.0, "mV"},
        {"target_signal", 0.0, "mV"}, cutoff_variable};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    const auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
    if (!(v(cutoff) >= 0)) throw bad_value("eprop_isi_trace_cutoff", v(cutoff), ">= 0");
  }
  std::vector<std::pair<std::string, uint32_t>> receptor_types() const override {
    return {{"eprop_learning_window", learning_window}, {"target_signal", target}};
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    EpropState& s = static_cast<EpropState&>(*g.state);
    s.h = h;
    for (size_t i = 0; i < g.size(); ++i) {
      g.internals[P_v][i] = std::exp(-h / g.vars[tau_m][i]);
      g.internals[P_i][i] = g.vars[tau_m][i] / g.vars[C_m][i] * (1.0 - g.internals[P_v][i]);
      s.archives[i].cutoff = cutoff_steps(g.vars[cutoff][i], h);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    EpropState& s = static_cast<EpropState&>(*g.state);
    const size_t n = g.size();
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const int64_t t = ctx.origin + lag;
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < n; ++i) {
        const auto var = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
        const auto take = [&](uint32_t port) {
          const size_t c = g.input(i, port);
          const double value = in.excitatory[c] + in.inhibitory[c];
          in.excitatory[c] = in.inhibitory[c] = 0.0;
          return value;
        };
        // NEST's readout sets its window and target as the rates are delivered, a step after
        // the step they arrive in (measured: a step later than a rate neuron takes them)
        const double z_in = take(spikes), window = s.window[i], goal = s.goal[i];
        s.window[i] = take(learning_window);
        s.goal[i] = take(target);
        const double el = var(E_L);
        double v = var(V_m) - el;
        v = g.internals[P_i][i] * s.i_in[i] + z_in + g.internals[P_v][i] * v;
        v = std::max(v, var(V_min) - el);
        const double readout = v + el;
        var(error_signal) = (readout - goal) * window;
        var(readout_signal) = readout * window;
        var(target_signal) = goal * window;
        s.sent.at(size_t(lag) * readout_values + learning_value, i) = var(error_signal);
        EpropArchive& a = s.archives[i];
        a.append(t);
        if (a.indegree) a.history.back().signal = var(error_signal);
        var(V_m) = v + el;
        const size_t c = g.input(i);
        s.i_in[i] = in.current[c] + var(I_e);
        in.current[c] = 0.0;
      }
      ctx.after_step(g, lag);
    }
  }

  bool sends(SecondaryEvent kind) const override { return kind == SecondaryEvent::learning_signal; }

  void gradient(NeuronGroup& g, size_t i, double* trace, double& w, const WeightOptimizer& optimizer, int64_t t_spike,
                bool flush) const override {
    const double p_v = g.internals[P_v][i];
    eprop_gradient(
        archive(g, i), g.gids[i], trace, w, optimizer, t_spike, flush,
        [&](const EpropEntry& entry, double z) {
          trace[z_bar] = p_v * trace[z_bar] + z;
          return entry.signal * trace[z_bar];
        },
        [&](double steps) { trace[z_bar] *= std::pow(p_v, steps); });
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(EpropReadout);

}  // namespace ranvier
