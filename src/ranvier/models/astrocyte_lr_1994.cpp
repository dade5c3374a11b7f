// NEST's astrocyte_lr_1994: the astrocyte of Li & Rinzel (1994) with the IP3 input and the
// slow inward current of Nadkarni & Jung (2003). Spikes of the neurons it listens to (weights
// >= 0) raise its IP3 by delta_IP3 times their weight; IP3 opens the IP3 receptors of its
// endoplasmic reticulum, whose calcium release above SIC_th makes the slow inward current it
// sends through sic_connection (kernel/coupling.hpp) to neurons that take it. Current input
// adds to the calcium's rate (NEST's J_noise). Integrated with the adaptive RKF45 solver at
// NEST's tolerance for it (absolute 1e-3 on every state variable); it never spikes.
#include <algorithm>
#include <cmath>
#include <string>

#include "models/ode_neuron.hpp"

namespace ranvier {
namespace {

enum Var {
  IP3,
  Ca_astro,
  h_IP3R,
  Ca_tot,
  IP3_0,
  Kd_act,
  Kd_inh,
  Kd_IP3_1,
  Kd_IP3_2,
  Km_SERCA,
  ratio_ER_cyt,
  delta_IP3,
  k_IP3R,
  SIC_scale,
  SIC_th,
  rate_L,
  rate_IP3R,
  rate_SERCA,
  tau_IP3,
  J_noise,
  integration_step
};
constexpr int W = ode::lanes;

class AstrocyteLr1994 final : public NeuronModel, public CoupledModel, public ode_neuron::DefaultRules {
 public:
  static constexpr std::array<int, 3> state = {IP3, Ca_astro, h_IP3R};
  static constexpr int I_stim = J_noise, integration_step = Var::integration_step;

  struct System {
    static constexpr int n = 3;
    double ca_tot[W], ip3_0[W], kd_act[W], kd_inh[W], kd_ip3_1[W], kd_ip3_2[W], km_serca[W], ratio[W], k_ip3r[W];
    double rate_l[W], rate_ip3r[W], rate_serca[W], tau_ip3[W], j_noise[W];
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      auto v = [&](Var k) { return g.vars[k][i]; };
      ca_tot[l] = v(Ca_tot), ip3_0[l] = v(IP3_0), kd_act[l] = v(Kd_act), kd_inh[l] = v(Kd_inh);
      kd_ip3_1[l] = v(Kd_IP3_1), kd_ip3_2[l] = v(Kd_IP3_2), km_serca[l] = v(Km_SERCA), ratio[l] = v(ratio_ER_cyt);
      k_ip3r[l] = v(k_IP3R), rate_l[l] = v(rate_L), rate_ip3r[l] = v(rate_IP3R), rate_serca[l] = v(rate_SERCA);
      tau_ip3[l] = v(tau_IP3), j_noise[l] = i_stim;
    }
    // NEST's right-hand side, operation for operation (so its powers stay std::pow).
    void derivatives(const double* y, double* f) const {
      for (int l = 0; l < W; ++l) {
        const double ip3 = y[l], h = y[2 * W + l];
        const double calc = std::max(0.0, std::min(y[W + l], ca_tot[l]));  // the calcium within its limits
        const double alpha_h = k_ip3r[l] * kd_inh[l] * (ip3 + kd_ip3_1[l]) / (ip3 + kd_ip3_2[l]);
        const double beta_h = k_ip3r[l] * calc;
        const double pump = rate_serca[l] * std::pow(calc, 2) / (std::pow(km_serca[l], 2) + std::pow(calc, 2));
        const double m_inf = ip3 / (ip3 + kd_ip3_1[l]);
        const double n_inf = calc / (calc + kd_act[l]);
        const double calc_er = (ca_tot[l] - calc) / ratio[l];
        const double leak = ratio[l] * rate_l[l] * (calc_er - calc);
        const double channel =
            ratio[l] * rate_ip3r[l] * std::pow(m_inf, 3) * std::pow(n_inf, 3) * std::pow(h, 3) * (calc_er - calc);
        f[l] = (ip3_0[l] - ip3) / tau_ip3[l];
        f[W + l] = channel - pump + leak + j_noise[l];
        f[2 * W + l] = alpha_h * (1.0 - h) - beta_h * h;
      }
    }
  };

  const char* name() const override { return "astrocyte_lr_1994"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"IP3", "Ca_astro", "h_IP3R"};
  }
  // NEST's defaults (Nadkarni & Jung 2003; the initial state of Li & Rinzel 1994)
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"IP3", 0.16, "uM"},
                                               {"Ca_astro", 0.073, "uM"},
                                               {"h_IP3R", 0.793, ""},
                                               {"Ca_tot", 2.0, "uM"},
                                               {"IP3_0", 0.16, "uM"},
                                               {"Kd_act", 0.08234, "uM"},
                                               {"Kd_inh", 1.049, "uM"},
                                               {"Kd_IP3_1", 0.13, "uM"},
                                               {"Kd_IP3_2", 0.9434, "uM"},
                                               {"Km_SERCA", 0.1, "uM"},
                                               {"ratio_ER_cyt", 0.185, ""},
                                               {"delta_IP3", 0.0002, "uM"},
                                               {"k_IP3R", 0.0002, "1/(uM*ms)"},
                                               {"SIC_scale", 1.0, ""},
                                               {"SIC_th", 0.19669, "uM"},
                                               {"rate_L", 0.00011, "1/ms"},
                                               {"rate_IP3R", 0.006, "1/ms"},
                                               {"rate_SERCA", 0.0009, "uM/ms"},
                                               {"tau_IP3", 7142.0, "ms"},
                                               {"J_noise", 0.0, "uM/ms"},
                                               {"integration_step", 0.0, "ms"}};
    return vars;
  }
  // NEST's checks, in its order
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](Var k) { return g.vars[k][i]; };
    const auto positive = {Ca_tot, Kd_act, Kd_IP3_1, Kd_IP3_2, Km_SERCA, ratio_ER_cyt, SIC_scale, tau_IP3};
    for (const Var k : {Ca_tot, IP3_0, Kd_act, Kd_inh, Kd_IP3_1, Kd_IP3_2, Km_SERCA, ratio_ER_cyt, delta_IP3, k_IP3R,
                        SIC_scale, SIC_th, rate_L, rate_IP3R, rate_SERCA, tau_IP3}) {
      const bool must_be_positive = std::find(positive.begin(), positive.end(), k) != positive.end();
      if (must_be_positive ? !(v(k) > 0) : !(v(k) >= 0))
        throw bad_value(own_variables()[k].name, v(k), must_be_positive ? "> 0" : ">= 0");
    }
    if (!(v(IP3) >= 0)) throw bad_value("IP3", v(IP3), ">= 0");
    if (!(v(Ca_astro) >= 0)) throw bad_value("Ca_astro", v(Ca_astro), ">= 0");
    if (!(v(h_IP3R) >= 0 && v(h_IP3R) <= 1)) throw bad_value("h_IP3R", v(h_IP3R), "in [0, 1]");
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<CouplingBuffers>();
  }
  void calibrate(NeuronGroup& g, double h) const override { ode_neuron::start_steps(g, integration_step, h); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AstrocyteLr1994>(g, ctx); }

  // After the step: the calcium back within its limits, the spikes' IP3, and the current the
  // calcium above SIC_th makes (in nM, as Nadkarni & Jung write it) to send for the step.
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [g, i, l, y, ctx, lag] = at;
    if (input.inhibitory != 0.0)
      ctx.fail(std::make_exception_ptr(BadParameterError(
          "astrocyte_lr_1994 takes spikes of weight >= 0 only: node " + std::to_string(g.gids[i]) +
          " received a summed weight of " + std::to_string(input.inhibitory) +
          " in the step ending at t = " + std::to_string(double(ctx.origin + lag + 1) * ctx.h) + " ms")));
    double& calcium = y[W + l];
    calcium = std::max(0.0, std::min(calcium, sys.ca_tot[l]));
    y[l] += g.vars[delta_IP3][i] * input.excitatory;
    const double above = (calcium - g.vars[SIC_th][i]) * 1000.0;
    buffers(g).sent.at(size_t(lag), i) = above > 1.0 ? std::log(above) * g.vars[SIC_scale][i] : 0.0;
  }

  const CoupledModel* coupled_model() const override { return this; }
  // It takes spikes and sends slow inward currents, no spikes.
  bool joins(SecondaryEvent kind) const override { return kind == SecondaryEvent::none; }
  bool sends(SecondaryEvent kind) const override { return kind == SecondaryEvent::slow_inward_current; }
  bool relax(NeuronGroup&, UpdateContext&, double) const override { return true; }  // nothing instantaneous
  double held(const NeuronGroup&, size_t) const override { return 0.0; }            // its current is always delayed
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AstrocyteLr1994);

}  // namespace ranvier
