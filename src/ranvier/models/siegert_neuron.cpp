// The mean-field rate of a population of leaky integrate-and-fire neurons (NEST's
// siegert_neuron): tau dr/dt = -r + mean + Phi(mu, sigma^2), with Phi Siegert's first-passage
// rate of a neuron whose input has mean mu and variance sigma^2 (Siegert 1951; with the
// threshold shift of synaptic filtering, Fourcaud and Brunel 2002), both summed from other
// Siegert neurons' rates through diffusion connections (kernel/coupling.hpp), NEST's
// drift_factor and diffusion_factor times each rate. Integrated exactly over a step as NEST does.
#include <cmath>

#include "core/errors.hpp"
#include "core/quadrature.hpp"
#include "models/coupled_model.hpp"

namespace ranvier {
namespace {

enum Var { rate, tau, tau_m, tau_syn, t_ref, mean, theta, V_reset, tau_minus, tau_minus_triplet };

// e^(x^2) erfc(x) for x >= 0: directly while erfc(x) is a normal number, then its asymptotic
// series, whose terms left out are below 1e-12 there.
double erfcx(double x) {
  if (x < 25.0) return std::exp(x * x) * std::erfc(x);
  const double u = 1.0 / (2.0 * x * x);
  return (1.0 - u * (1.0 - 3.0 * u * (1.0 - 5.0 * u * (1.0 - 7.0 * u)))) / (x * std::sqrt(M_PI));
}

constexpr double tolerance = 1e-12;  // relative, of each integral

// Dawson's integral exp(-x^2) int_0^x exp(t^2) dt.
double dawson(double x) {
  return quadrature::integrate([x](double t) { return std::exp((t - x) * (t + x)); }, 0.0, x, tolerance);
}

double integral_of_erfcx(double a, double b) { return quadrature::integrate(erfcx, a, b, tolerance); }

class SiegertNeuron final : public NeuronModel, public CoupledModel {
 public:
  const char* name() const override { return "siegert_neuron"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"rate"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"rate", 0.0, "Hz"},       {"tau", 1.0, "ms"},
                                               {"tau_m", 5.0, "ms"},      {"tau_syn", 0.0, "ms"},
                                               {"t_ref", 2.0, "ms"},      {"mean", 0.0, "Hz"},
                                               {"theta", 15.0, "mV"},     {"V_reset", 0.0, "mV"},
                                               {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(V_reset) < v(theta))) throw bad_value("V_reset", v(V_reset), "< theta = " + std::to_string(v(theta)));
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(tau) > 0)) throw bad_value("tau", v(tau), "> 0");
    if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
    if (!(v(tau_syn) >= 0)) throw bad_value("tau_syn", v(tau_syn), ">= 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    validate_traces(g, i);
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<CouplingBuffers>();
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) throw IllegalConnectionError("siegert_neuron takes rates only, no currents");
    if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for siegert_neuron");
    return 0;
  }
  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(2, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      g.internals[0][i] = std::exp(-h / g.vars[tau][i]);
      g.internals[1][i] = -std::expm1(-h / g.vars[tau][i]);
    }
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { advance<false>(g, ctx, 0.0); }

  const CoupledModel* coupled_model() const override { return this; }
  bool joins(SecondaryEvent kind) const override { return kind == SecondaryEvent::diffusion; }
  bool relax(NeuronGroup& g, UpdateContext& ctx, double tol) const override {
    const std::vector<double> kept = g.vars[rate];
    const bool settled = advance<true>(g, ctx, tol);
    g.vars[rate] = kept;
    return settled;
  }
  double held(const NeuronGroup& g, size_t i) const override { return g.vars[rate][i]; }

 private:
  // Siegert's rate (1/s) for input of mean mu and variance sigma2, NEST's three cases by
  // where reset and threshold lie relative to the mean; 0 more than six deviations below.
  static double siegert(const NeuronGroup& g, size_t i, double mu, double sigma2) {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    const double sigma = std::sqrt(sigma2);
    if ((v(theta) - mu) > 6. * sigma) return 0.;
    const double alpha = 2.0652531522312172;  // sqrt(2) |zeta(1/2)|, Fourcaud and Brunel (2002)
    const double shift = alpha / 2. * std::sqrt(v(tau_syn) / v(tau_m));
    const double y_th = (v(theta) - mu) / sigma + shift;
    const double y_r = (v(V_reset) - mu) / sigma + shift;
    const double root_pi = std::sqrt(M_PI);
    if (y_r > 0.) {
      const double integral = 2. * dawson(y_th) - 2. * std::exp(y_r * y_r - y_th * y_th) * dawson(y_r) -
                              std::exp(-y_th * y_th) * integral_of_erfcx(y_r, y_th);
      return 1e3 * std::exp(-y_th * y_th) / (std::exp(-y_th * y_th) * v(t_ref) + v(tau_m) * root_pi * integral);
    }
    if (y_th < 0.) return 1e3 * 1. / (v(t_ref) + v(tau_m) * root_pi * integral_of_erfcx(-y_th, -y_r));
    const double integral = 2. * dawson(y_th) + std::exp(-y_th * y_th) * integral_of_erfcx(y_th, -y_r);
    return 1e3 * std::exp(-y_th * y_th) / (std::exp(-y_th * y_th) * v(t_ref) + v(tau_m) * root_pi * integral);
  }

  // Steps [ctx.from, ctx.to) as NEST's update_: drift in instant_ex, diffusion in instant_in.
  template <bool relaxing>
  bool advance(NeuronGroup& g, UpdateContext& ctx, double tol) const {
    CouplingBuffers& b = buffers(g);
    bool settled = true;
    double* r = g.var(rate);
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      for (size_t i = 0; i < g.size(); ++i) {
        b.sent.at(size_t(lag), i) = r[i];
        const double drive = siegert(g, i, b.instant_ex.at(size_t(lag), i), b.instant_in.at(size_t(lag), i));
        r[i] = g.internals[0][i] * r[i] + g.internals[1][i] * (g.vars[mean][i] + drive);
        if (relaxing) {
          double& last = b.last.at(size_t(lag), i);
          settled = settled && !(std::fabs(r[i] - last) > tol);
          last = r[i];
        }
      }
      if (!relaxing) ctx.after_step(g, lag);
    }
    return settled;
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(SiegertNeuron);

}  // namespace ranvier
