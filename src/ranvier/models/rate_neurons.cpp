// NEST's rate neurons (Hahne et al. 2017): with input noise (*_rate_ipn), with output noise
// (*_rate_opn), and the noiseless rate_transformer_*, each with one of six gain functions.
// A rate follows tau dr/dt = -lambda r + mu + phi(input) + noise, integrated exactly over a
// step as NEST does; input arrives as rates through rate connections (kernel/coupling.hpp):
// delayed ones in the input rows, instantaneous ones in CouplingBuffers.
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/coupled_model.hpp"

namespace ranvier {
namespace {

// A gain function: its parameters (NEST's names and defaults), phi applied to input h, and the
// factors of multiplicative coupling (1 but for lin_rate). p holds a neuron's parameter values
// in declaration order.
struct Lin {
  static constexpr const char* stem = "lin";
  static std::vector<Variable> parameters() {
    return {{"g", 1.0, ""}, {"g_ex", 1.0, ""}, {"g_in", 1.0, ""}, {"theta_ex", 0.0, ""}, {"theta_in", 0.0, ""}};
  }
  static double phi(const double* p, double h) { return p[0] * h; }
  static double factor_ex(const double* p, double rate) { return p[1] * (p[3] - rate); }
  static double factor_in(const double* p, double rate) { return p[2] * (p[4] + rate); }
};

// Gain functions whose multiplicative coupling factors are 1.
struct Unscaled {
  static double factor_ex(const double*, double) { return 1.0; }
  static double factor_in(const double*, double) { return 1.0; }
};

struct Tanh : Unscaled {
  static constexpr const char* stem = "tanh";
  static std::vector<Variable> parameters() { return {{"g", 1.0, ""}, {"theta", 0.0, ""}}; }
  static double phi(const double* p, double h) { return std::tanh(p[0] * (h - p[1])); }
};

struct ThresholdLin : Unscaled {
  static constexpr const char* stem = "threshold_lin";
  static std::vector<Variable> parameters() {
    return {{"g", 1.0, ""}, {"theta", 0.0, ""}, {"alpha", std::numeric_limits<double>::infinity(), ""}};
  }
  static double phi(const double* p, double h) { return std::min(std::max(p[0] * (h - p[1]), 0.0), p[2]); }
};

struct Sigmoid : Unscaled {
  static constexpr const char* stem = "sigmoid";
  static std::vector<Variable> parameters() { return {{"g", 1.0, ""}, {"beta", 1.0, ""}, {"theta", 0.0, ""}}; }
  static double phi(const double* p, double h) { return p[0] / (1.0 + std::exp(-p[1] * (h - p[2]))); }
};

// Gancarz and Grossberg (1998): (g h)^4 / (0.1^4 + (g h)^4).
struct SigmoidGg1998 : Unscaled {
  static constexpr const char* stem = "sigmoid_gg_1998";
  static std::vector<Variable> parameters() { return {{"g", 1.0, ""}}; }
  static double phi(const double* p, double h) {
    const double x = std::pow(p[0] * h, 4.0);
    return x / (std::pow(0.1, 4.0) + x);
  }
};

// Its mu and sigma share their names with an input-noise neuron's: NEST sets both from one
// key, shows the gain's sigma under "sigma" and the noise's under "std".
struct Gauss : Unscaled {
  static constexpr const char* stem = "gauss";
  static std::vector<Variable> parameters() { return {{"g", 1.0, ""}, {"mu", 0.0, ""}, {"sigma", 0.0, ""}}; }
  static double phi(const double* p, double h) {
    return p[0] * std::exp(-std::pow(h - p[1], 2.0) / (2.0 * std::pow(p[2], 2.0)));
  }
};

enum class Noise { input, output, none };  // *_rate_ipn, *_rate_opn, rate_transformer_*

std::vector<Variable> rate_variables(Noise noise) {
  const std::vector<Variable> both = {{"tau", 10.0, "ms"}, {"sigma", 1.0, ""}, {"mu", 0.0, ""}};
  const std::vector<Variable> switches = {{"linear_summation", 1.0, "", true}, {"mult_coupling", 0.0, "", true}};
  const std::vector<Variable> aliases = {{"mean", 0.0, ""}, {"std", 1.0, ""}};  // NEST's old names of mu, sigma
  // NEST's rate neurons are archiving nodes, with their traces' time constants
  std::vector<Variable> vars = {{"rate", 0.0, ""}, {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
  auto add = [&](const std::vector<Variable>& more) { vars.insert(vars.end(), more.begin(), more.end()); };
  switch (noise) {
    case Noise::input:
      add({{"noise", 0.0, ""}});
      add(both);
      add({{"lambda", 1.0, ""}, {"rectify_rate", 0.0, ""}, {"rectify_output", 0.0, "", true}});
      add(switches);
      add(aliases);
      break;
    case Noise::output:
      add({{"noise", 0.0, ""}, {"noisy_rate", 0.0, ""}});
      add(both);
      add(switches);
      add(aliases);
      break;
    case Noise::none:
      add({{"linear_summation", 1.0, "", true}});
      break;
  }
  return vars;
}

std::string model_name(const char* stem, Noise noise) {
  const std::string s = stem;
  if (noise == Noise::none) return "rate_transformer_" + s;
  // NEST's one irregular name: sigmoid_rate_gg_1998_ipn
  const std::string rate = s == "sigmoid_gg_1998" ? "sigmoid_rate_gg_1998" : s + "_rate";
  return rate + (noise == Noise::input ? "_ipn" : "_opn");
}

template <class Gain, Noise noise>
class RateNeuron final : public NeuronModel, public CoupledModel {
 public:
  RateNeuron() : name_(model_name(Gain::stem, noise)), vars_(rate_variables(noise)) {
    // the variables are still being made: index_of (which keeps them once made) must wait
    auto index_of = [this](const std::string& name) {
      for (size_t k = 0; k < vars_.size(); ++k)
        if (vars_[k].name == name) return int(k);
      return -1;
    };
    for (const Variable& p : Gain::parameters()) {  // a gain parameter named as the neuron's is one variable
      const int at = index_of(p.name);
      if (at >= 0) {
        vars_[size_t(at)].default_value = p.default_value;  // NEST shows the gain's value
        gain_.push_back(at);
      } else {
        vars_.push_back(p);
        gain_.push_back(int(vars_.size()) - 1);
      }
    }
    rate_ = index_of("rate");
    noise_ = index_of("noise");
    noisy_ = index_of("noisy_rate");
    tau_ = index_of("tau");
    lambda_ = index_of("lambda");
    mu_ = index_of("mu");
    // the gain's sigma takes the name: the noise's amplitude is then std alone
    shares_sigma_ = noise != Noise::none && gain_.back() == index_of("sigma");
    sigma_ = index_of(shares_sigma_ ? "std" : "sigma");
    rectify_rate_ = index_of("rectify_rate");
    rectify_ = index_of("rectify_output");
    linear_ = index_of("linear_summation");
    mult_ = index_of("mult_coupling");
  }
  const char* name() const override { return name_.c_str(); }
  std::optional<std::vector<std::string>> recordables() const override {
    if (noise == Noise::input) return std::vector<std::string>{"noise", "rate"};
    if (noise == Noise::output) return std::vector<std::string>{"noise", "noisy_rate", "rate"};
    return std::vector<std::string>{"rate"};
  }
  const std::vector<Variable>& own_variables() const override { return vars_; }
  const CoupledModel* coupled_model() const override { return this; }
  bool joins(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::delayed_rate || kind == SecondaryEvent::instantaneous_rate;
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<CouplingBuffers>();
  }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (current) throw IllegalConnectionError(name_ + " takes rates only, no currents");
    if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for " + name_);
    return 0;
  }
  // mean and std are NEST's old names of mu and sigma: setting either sets both.
  void on_set(NeuronGroup& g, size_t i, const SetContext& ctx) const override {
    if (noise == Noise::none) return;
    double& mean = g.vars[size_t(index_of("mean"))][i];
    double& mu = g.vars[size_t(mu_)][i];
    if (ctx.sets("mean") && !ctx.sets("mu")) mu = mean;
    mean = mu;
    double& sigma = g.vars[size_t(index_of("sigma"))][i];
    double& std = g.vars[size_t(index_of("std"))][i];
    if (shares_sigma_) {
      if (ctx.sets("sigma") && !ctx.sets("std")) std = sigma;
    } else {
      if (ctx.sets("std") && !ctx.sets("sigma")) sigma = std;
      std = sigma;
    }
  }
  void validate(NeuronGroup& g, size_t i) const override {
    validate_traces(g, i);
    const double tau_minus = g.vars[size_t(index_of("tau_minus"))][i];
    if (!(tau_minus > 0)) throw bad_value("tau_minus", tau_minus, "> 0");
    if (noise == Noise::none) return;
    if (!(g.vars[size_t(tau_)][i] > 0)) throw bad_value("tau", g.vars[size_t(tau_)][i], "> 0");
    const double sigma = g.vars[size_t(sigma_)][i];
    if (!(sigma >= 0)) throw bad_value(vars_[size_t(sigma_)].name, sigma, ">= 0");
    if (noise != Noise::input) return;
    if (!(g.vars[size_t(lambda_)][i] >= 0)) throw bad_value("lambda", g.vars[size_t(lambda_)][i], ">= 0");
    if (!(g.vars[size_t(rectify_rate_)][i] >= 0))
      throw bad_value("rectify_rate", g.vars[size_t(rectify_rate_)][i], ">= 0");
  }
  // The propagators: the rate's decay P1 over a step, the input's weight P2 and the noise's.
  void calibrate(NeuronGroup& g, double h) const override {
    if (noise == Noise::none) return;
    g.internals.assign(3, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      const double tau = g.vars[size_t(tau_)][i];
      double& P1 = g.internals[0][i];
      double& P2 = g.internals[1][i];
      double& noise_factor = g.internals[2][i];
      if (noise == Noise::output) {
        P1 = std::exp(-h / tau), P2 = -std::expm1(-h / tau), noise_factor = std::sqrt(tau / h);
        continue;
      }
      const double lambda = g.vars[size_t(lambda_)][i];
      if (lambda > 0) {
        P1 = std::exp(-lambda * h / tau);
        P2 = -1.0 / lambda * std::expm1(-lambda * h / tau);
        noise_factor = std::sqrt(-0.5 / lambda * std::expm1(-2.0 * lambda * h / tau));
      } else {
        P1 = 1.0, P2 = h / tau, noise_factor = std::sqrt(h / tau);
      }
    }
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { advance<false>(g, ctx, 0.0); }
  bool relax(NeuronGroup& g, UpdateContext& ctx, double tol) const override {
    const std::vector<std::vector<double>> kept = g.vars;
    const bool settled = advance<true>(g, ctx, tol);
    g.vars = kept;
    return settled;
  }
  double held(const NeuronGroup& g, size_t i) const override {
    return g.vars[size_t(noise == Noise::output ? noisy_ : rate_)][i];
  }
  double coupled(const NeuronGroup& g, size_t i, double w, double value) const override {
    if (g.vars[size_t(linear_)][i] != 0.0) return w * value;
    double p[8];
    gain_of(g, i, p);
    return w * Gain::phi(p, value);
  }
  bool one_sign() const override { return noise == Noise::none; }

 private:
  void gain_of(const NeuronGroup& g, size_t i, double* p) const {
    for (size_t k = 0; k < gain_.size(); ++k) p[k] = g.vars[size_t(gain_[k])][i];
  }

  // Steps [ctx.from, ctx.to) as NEST's update_: the final pass reads and clears the delayed
  // input and is recorded; a relaxation pass leaves the input for the next and compares its
  // rates with the last pass's (the caller restores the state).
  template <bool relaxing>
  bool advance(NeuronGroup& g, UpdateContext& ctx, double tol) const {
    CouplingBuffers& b = buffers(g);
    bool settled = true;
    double* rate = g.var(rate_);
    double p[8];
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t column = g.input(i);
        const double delayed_ex = in.excitatory[column], delayed_in = in.inhibitory[column];
        if (!relaxing) in.excitatory[column] = in.inhibitory[column] = 0.0;
        const double instant_ex = b.instant_ex.at(size_t(lag), i), instant_in = b.instant_in.at(size_t(lag), i);
        gain_of(g, i, p);
        const bool linear = g.vars[size_t(linear_)][i] != 0.0;
        double r;
        if constexpr (noise == Noise::none) {
          b.sent.at(size_t(lag), i) = rate[i];
          r = 0.0;
          r += linear ? Gain::phi(p, delayed_ex + instant_ex) : delayed_ex + instant_ex;
        } else {
          const double P1 = g.internals[0][i], P2 = g.internals[1][i], noise_factor = g.internals[2][i];
          const double sigma = g.vars[size_t(sigma_)][i], mu = g.vars[size_t(mu_)][i];
          const double z =
              sigma != 0.0
                  ? Stream(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0).normal(uint64_t(ctx.origin + lag))
                  : 0.0;
          const double drawn = sigma * z;
          g.vars[size_t(noise_)][i] = drawn;
          double sent;  // the rate this step sends, which multiplicative coupling scales by
          if constexpr (noise == Noise::input) {
            sent = rate[i];
            r = P1 * sent + P2 * mu + noise_factor * drawn;
          } else {
            sent = rate[i] + noise_factor * drawn;
            g.vars[size_t(noisy_)][i] = sent;
            r = P1 * rate[i] + P2 * mu;
          }
          b.sent.at(size_t(lag), i) = sent;
          const bool mult = g.vars[size_t(mult_)][i] != 0.0;
          const double H_ex = mult ? Gain::factor_ex(p, sent) : 1.0;
          const double H_in = mult ? Gain::factor_in(p, sent) : 1.0;
          if (linear && mult) {
            r += P2 * H_ex * Gain::phi(p, delayed_ex + instant_ex);
            r += P2 * H_in * Gain::phi(p, delayed_in + instant_in);
          } else if (linear) {
            r += P2 * Gain::phi(p, delayed_ex + instant_ex + delayed_in + instant_in);
          } else {
            r += P2 * H_ex * (delayed_ex + instant_ex);
            r += P2 * H_in * (delayed_in + instant_in);
          }
          if constexpr (noise == Noise::input) {
            const double floor = g.vars[size_t(rectify_rate_)][i];
            if (g.vars[size_t(rectify_)][i] != 0.0 && r < floor) r = floor;
          }
        }
        if (relaxing) {
          double& last = b.last.at(size_t(lag), i);
          settled = settled && !(std::fabs(r - last) > tol);
          last = r;
        }
        rate[i] = r;
      }
      if (!relaxing) ctx.after_step(g, lag);
    }
    return settled;
  }

  std::string name_;
  std::vector<Variable> vars_;
  std::vector<int> gain_;  // the gain function's parameters among the variables
  int rate_, noise_, noisy_, tau_, lambda_, mu_, sigma_, rectify_rate_, rectify_, linear_, mult_;
  bool shares_sigma_ = false;
};

template <class Gain, Noise noise>
bool register_rate_neuron() {
  static const RateNeuron<Gain, noise> model;
  return NeuronModels::instance().add(model.name(), &model);
}

[[maybe_unused]] const bool registered[] = {
    register_rate_neuron<Lin, Noise::input>(),           register_rate_neuron<Tanh, Noise::input>(),
    register_rate_neuron<ThresholdLin, Noise::input>(),  register_rate_neuron<Sigmoid, Noise::input>(),
    register_rate_neuron<SigmoidGg1998, Noise::input>(), register_rate_neuron<Gauss, Noise::input>(),
    register_rate_neuron<Lin, Noise::output>(),          register_rate_neuron<Tanh, Noise::output>(),
    register_rate_neuron<ThresholdLin, Noise::output>(), register_rate_neuron<Lin, Noise::none>(),
    register_rate_neuron<Tanh, Noise::none>(),           register_rate_neuron<ThresholdLin, Noise::none>(),
    register_rate_neuron<Sigmoid, Noise::none>(),        register_rate_neuron<SigmoidGg1998, Noise::none>(),
    register_rate_neuron<Gauss, Noise::none>(),
};

}  // namespace
}  // namespace ranvier
