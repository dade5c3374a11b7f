// NEST's gif_pop_psc_exp: a population of N generalized integrate-and-fire neurons with escape
// noise and threshold adaptation, simulated as one node by the mesoscopic method of Schwalger,
// Deger and Gerstner (2017): the population's spike history over a kernel of len_kernel steps
// (the refractory and adaptation kernels), the expected number of spikes of each step, and the
// number drawn from a binomial (BinoRand) or Poisson distribution with that mean. The node sends
// that many spikes at once (NEST's multiplicity); its input arrives as a population's synaptic
// currents. The steps follow the paper's Figs. 11 and 12 line by line, as NEST's do; the draws
// come from the node's own stream at the step's index, the same for any partition.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/binomial.hpp"
#include "core/rng.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var {
  N,
  tau_m,
  C_m,
  t_ref,
  lambda_0,
  Delta_V,
  len_kernel,
  I_e,
  V_reset,
  V_T_star,
  E_L,
  tau_syn_ex,
  tau_syn_in,
  BinoRand,
  V_m,
  n_events,
  E_sfa,
  mean,
  I_syn_ex,
  I_syn_in,
  I_stim,
  lambda_free,
  x,
  z,
  k0,
  k_ref,
  initialized,  // hidden: the method's scalars
  n_vars
};
enum List { tau_sfa, q_sfa };
// The method's arrays (list_state): over the kernel, and per adaptation time constant.
enum Kernel { n_hist, m_hist, v_hist, u_hist, lambda_hist, theta, theta_tld, g_sfa, Q30, Q30K, n_state };
enum Internal { P22, P20, P11_ex, P11_in, n_internal };

class GifPopPscExp final : public NeuronModel {
 public:
  const char* name() const override { return "gif_pop_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"E_sfa", "I_syn_ex", "I_syn_in", "V_m", "mean", "n_events"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = {
          {"N", 100.0, ""},          {"tau_m", 20.0, "ms"},       {"C_m", 250.0, "pF"},     {"t_ref", 4.0, "ms"},
          {"lambda_0", 10.0, "Hz"},  {"Delta_V", 2.0, "mV"},      {"len_kernel", -1.0, ""}, {"I_e", 0.0, "pA"},
          {"V_reset", 0.0, "mV"},    {"V_T_star", 15.0, "mV"},    {"E_L", 0.0, "mV"},       {"tau_syn_ex", 3.0, "ms"},
          {"tau_syn_in", 6.0, "ms"}, {"BinoRand", 1.0, "", true}, {"V_m", 0.0, "mV"},       {"n_events", 0.0, ""},
          {"E_sfa", 0.0, "mV"},      {"mean", 0.0, ""},           {"I_syn_ex", 0.0, "pA"},  {"I_syn_in", 0.0, "pA"}};
      for (const char* hidden : {"I_stim", "lambda_free", "x", "z", "k0", "k_ref", "initialized"})
        v.push_back({hidden, 0.0, "", false, {}, true});
      return v;
    }();
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"tau_sfa", {300.0}, "ms"}, {"q_sfa", {0.5}, "mV"}};
    return lists;
  }

  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    const auto& vars = own_variables();
    if (!(v(N) >= 1 && v(N) == std::floor(v(N)))) throw bad_value("N", v(N), "a positive integer");
    if (v(len_kernel) != std::floor(v(len_kernel))) throw bad_value("len_kernel", v(len_kernel), "an integer");
    for (int k : {tau_m, C_m, Delta_V, tau_syn_ex, tau_syn_in})
      if (!(v(k) > 0)) throw bad_value(vars[size_t(k)].name, v(k), "> 0");
    if (!(v(lambda_0) >= 0)) throw bad_value("lambda_0", v(lambda_0), ">= 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    const std::vector<double>&taus = g.list(tau_sfa, i), &qs = g.list(q_sfa, i);
    if (taus.empty()) throw bad_value("tau_sfa", listed(taus), "at least one time constant");
    if (qs.size() != taus.size())
      throw bad_value("q_sfa", listed(qs), "as long as tau_sfa (" + std::to_string(taus.size()) + ")");
    for (double t : taus)
      if (!(t > 0)) throw bad_value("tau_sfa", listed(taus), "> 0 throughout");
  }
  // As NEST: any change starts the population's history anew at the next simulation.
  void after_set(NeuronGroup& g, size_t i) const override { g.vars[initialized][i] = 0.0; }

  void calibrate(NeuronGroup& g, double h) const override {
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    g.list_state.resize(n_state, std::vector<std::vector<double>>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) {
      auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
      g.internals[P22][i] = std::exp(-h / v(tau_m));
      g.internals[P20][i] = v(tau_m) / v(C_m) * (1 - g.internals[P22][i]);
      g.internals[P11_ex][i] = std::exp(-h / v(tau_syn_ex));
      g.internals[P11_in][i] = std::exp(-h / v(tau_syn_in));
      if (v(initialized) == 0.0) start(g, i, h);
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t column = g.first_input + uint32_t(i);
        const long spikes = step(g, i, ctx, ctx.origin + lag, in.excitatory[column], in.inhibitory[column]);
        in.excitatory[column] = in.inhibitory[column] = 0.0;
        g.vars[I_stim][i] = in.current[column];
        in.current[column] = 0.0;
        for (long k = 0; k < spikes; ++k) ctx.spike(g, i, lag);  // NEST's multiplicity
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  // The adaptation kernel at a lag of k steps (mV): the sum over its exponentials.
  static double adaptation_kernel(const NeuronGroup& g, size_t i, long k, double h) {
    double theta_k = 0.0;
    const std::vector<double>&taus = g.list(tau_sfa, i), &qs = g.list(q_sfa, i);
    for (size_t j = 0; j < taus.size(); ++j) theta_k += qs[j] * std::exp(-double(k) * h / taus[j]);
    return theta_k;
  }

  // The population's start (InitPopulations, Fig. 11): all N neurons fired long ago; the kernel
  // as long as the adaptation takes to fall below a tenth of Delta_V (at least 5 tau_m, at most
  // 20 s), unless len_kernel says.
  static void start(NeuronGroup& g, size_t i, double h) {
    auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
    if (v(len_kernel) < 1) {
      long k = long(20000.0 / h);
      const long k_min = long(5 * v(tau_m) / h);
      while (adaptation_kernel(g, i, k, h) / v(Delta_V) < 0.1 && k > k_min) --k;
      if (double(k) * h <= v(t_ref)) k = long(v(t_ref) / h) + 1;
      v(len_kernel) = double(k);
    }
    const size_t len = size_t(v(len_kernel));
    v(k_ref) = std::round(v(t_ref) / h);
    v(lambda_free) = v(x) = v(z) = v(k0) = 0.0;
    auto& s = g.list_state;
    for (int k : {n_hist, m_hist, v_hist, u_hist, lambda_hist}) s[k][i].assign(len, 0.0);
    s[theta][i].resize(len);
    s[theta_tld][i].resize(len);
    for (size_t k = 0; k < len; ++k) {
      s[theta][i][k] = adaptation_kernel(g, i, long(len - k), h);
      s[theta_tld][i][k] = v(Delta_V) * (1. - std::exp(-s[theta][i][k] / v(Delta_V))) / v(N);
    }
    s[n_hist][i][len - 1] = s[m_hist][i][len - 1] = v(N);
    const std::vector<double>&taus = g.list(tau_sfa, i), &qs = g.list(q_sfa, i);
    s[g_sfa][i].assign(taus.size(), 0.0);
    s[Q30][i].resize(taus.size());
    s[Q30K][i].resize(taus.size());
    for (size_t j = 0; j < taus.size(); ++j) {
      s[Q30K][i][j] = qs[j] * taus[j] * std::exp(-h * double(len) / taus[j]);
      s[Q30][i][j] = std::exp(-h / taus[j]);
    }
    v(initialized) = 1.0;
  }

  // One step of population i (Figs. 11 and 12, NEST's order); returns the spikes drawn.
  static long step(NeuronGroup& g, size_t i, UpdateContext& ctx, int64_t at, double ex, double inh) {
    auto v = [&](int k) -> double& { return g.vars[size_t(k)][i]; };
    auto p = [&](int k) { return g.internals[size_t(k)][i]; };
    auto& s = g.list_state;
    std::vector<double>&n = s[n_hist][i], &m = s[m_hist][i], &vv = s[v_hist][i], &u = s[u_hist][i];
    std::vector<double>& lambda = s[lambda_hist][i];
    const double h = ctx.h;
    const int len = int(v(len_kernel)), kk0 = int(v(k0));
    double h_tot = (v(I_e) + v(I_stim)) * p(P20) + v(E_L);
    // the input as the paper's rescaled activities
    const double JNA_ex = ex / h * v(tau_syn_ex) / v(C_m), JNA_in = inh / h * v(tau_syn_in) / v(C_m);
    double JNy_ex = v(I_syn_ex) / v(C_m), JNy_in = v(I_syn_in) / v(C_m);
    const double h_ex_tmp =
        v(tau_syn_ex) * p(P11_ex) * (JNy_ex - JNA_ex) - p(P22) * (v(tau_syn_ex) * JNy_ex - v(tau_m) * JNA_ex);
    const double h_in_tmp =
        v(tau_syn_in) * p(P11_in) * (JNy_in - JNA_in) - p(P22) * (v(tau_syn_in) * JNy_in - v(tau_m) * JNA_in);
    const double h_ex = v(tau_m) * (JNA_ex + h_ex_tmp / (v(tau_syn_ex) - v(tau_m)));
    const double h_in = v(tau_m) * (JNA_in + h_in_tmp / (v(tau_syn_in) - v(tau_m)));
    h_tot += h_ex + h_in;
    JNy_ex = JNA_ex + (JNy_ex - JNA_ex) * p(P11_ex);
    JNy_in = JNA_in + (JNy_in - JNA_in) * p(P11_in);
    v(I_syn_ex) = JNy_ex * v(C_m);
    v(I_syn_in) = JNy_in * v(C_m);

    double W = 0, X = 0, Y = 0, Z = 0;
    double& theta_hat = v(E_sfa);
    theta_hat = v(V_T_star);
    v(V_m) = (v(V_m) - v(E_L)) * p(P22) + h_tot;
    std::vector<double>&gs = s[g_sfa][i], &q30 = s[Q30][i], &q30k = s[Q30K][i];
    for (size_t j = 0; j < gs.size(); ++j) {
      const double g_j = (1. - q30[j]) * n[size_t(kk0)] / (v(N) * h);
      gs[j] = gs[j] * q30[j] + g_j;
      theta_hat += q30k[j] * gs[j];
    }
    const double rate_0 = v(lambda_0), delta_v = v(Delta_V);
    const double lambda_tld_free = escape_rate(rate_0, delta_v, v(V_m) - theta_hat);
    const double P_free = 1 - std::exp(-0.0005 * (v(lambda_free) + lambda_tld_free) * h);
    v(lambda_free) = lambda_tld_free;
    theta_hat -= n[0] * s[theta_tld][i][0];
    for (int k = 0; k < len; ++k) X += m[size_t(k)];
    double theta_run = theta_hat;  // the free threshold stays recordable
    const double e_l = v(E_L), p22 = p(P22);
    const double *kernel = s[theta][i].data(), *kernel_tld = s[theta_tld][i].data();
    // the kernel's entries from the oldest on: k runs round the ring from k0 without a division
    const size_t marked_end = size_t(std::max(0, len - int(v(k_ref))));  // a given kernel may be shorter
    for (size_t marked = 0, k = size_t(kk0); marked < marked_end; ++marked, k = k + 1 == size_t(len) ? 0 : k + 1) {
      const double th = kernel[marked] + theta_run;
      theta_run += n[k] * kernel_tld[marked];
      u[k] = (u[k] - e_l) * p22 + h_tot;
      const double lambda_tld = escape_rate(rate_0, delta_v, u[k] - th);
      double P_lambda = 0.0005 * (lambda_tld + lambda[k]) * h;
      if (P_lambda > 0.01) P_lambda = 1. - std::exp(-P_lambda);
      lambda[k] = lambda_tld;
      Y += P_lambda * vv[k];
      Z += vv[k];
      W += P_lambda * m[k];
      const double ompl = 1. - P_lambda;
      vv[k] = ompl * ompl * vv[k] + P_lambda * m[k];
      m[k] = ompl * m[k];
    }
    const double P_Lambda = Z + v(z) > 0.0 ? (Y + P_free * v(z)) / (Z + v(z)) : 0.0;
    v(mean) = W + P_free * v(x) + P_Lambda * (v(N) - X - v(x));
    const long drawn = v(BinoRand) != 0.0 ? draw_binomial(g, i, ctx, at) : draw_poisson(g, i, ctx, at);
    v(n_events) = double(drawn);
    const double ompf = 1 - P_free;
    v(z) = ompf * ompf * v(z) + v(x) * P_free + vv[size_t(kk0)];
    v(x) = v(x) * ompf + m[size_t(kk0)];
    n[size_t(kk0)] = m[size_t(kk0)] = double(drawn);
    vv[size_t(kk0)] = 0;
    u[size_t(kk0)] = v(V_reset);
    lambda[size_t(kk0)] = 0.;
    v(k0) = double((kk0 + 1) % len);
    return drawn;
  }

  // The escape rate (1/s) of a neuron `over` mV above its threshold.
  static double escape_rate(double rate_0, double delta_v, double over) { return rate_0 * std::exp(over / delta_v); }
  static Stream draws(const NeuronGroup& g, size_t i, const UpdateContext& ctx) {
    return Stream(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0);
  }
  static long draw_binomial(const NeuronGroup& g, size_t i, const UpdateContext& ctx, int64_t at) {
    const double n = g.vars[N][i], p_bino = g.vars[mean][i] / n;
    if (p_bino >= 1.) return long(n);
    if (p_bino <= 0.) return 0;
    return long(binomial(draws(g, i, ctx), uint64_t(n), p_bino, uint64_t(at) << 16));
  }
  // NEST's guards: the whole population at an excessive mean; a Bernoulli draw where one spike
  // is as likely as any; never more than N.
  static long draw_poisson(const NeuronGroup& g, size_t i, const UpdateContext& ctx, int64_t at) {
    const double n = g.vars[N][i], expected = g.vars[mean][i];
    if (expected > n) return long(n);
    if (!(expected > DBL_MIN)) return 0;
    const Stream s = draws(g, i, ctx);
    const long k = 1. - (expected + 1.) * std::exp(-expected) > DBL_MIN ? long(s.poisson(uint64_t(at), expected))
                                                                        : long(s.uniform(uint64_t(at)) < expected);
    return std::min(k, long(n));
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GifPopPscExp);

}  // namespace ranvier
