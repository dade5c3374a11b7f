// NEST's gif_cond_exp_multisynapse: gif_cond_exp's neuron (the adaptation and stochastic spikes
// of gif_common.hpp) with any number of exponentially decaying conductance receptors, one per
// entry of its E_rev and tau_syn lists (receptor_type k from 1; receptor_ports.hpp), integrated
// with the adaptive RKF45 solver at NEST's tolerance (absolute gsl_error_tol on every value).
// I_stc and E_sfa are held over the step, V_m is clamped at V_reset for t_ref after a spike, and
// a step's spikes join the conductances after it (NEST's order, as gif_cond_exp's).
#include <memory>
#include <string>

#include "models/gif_common.hpp"
#include "models/ode_neuron.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier {
namespace {

enum Var {
  V_m,
  E_sfa,
  I_stc,
  I_stim,
  C_m,
  g_L,
  E_L,
  V_reset,
  Delta_V,
  V_T_star,
  lambda_0,
  t_ref,
  I_e,
  tau_minus,
  tau_minus_triplet,
  gsl_error_tol,
  integration_step
};
constexpr int g_list = 4;  // after gif_common's lists: each receptor's conductance
constexpr int W = ode::lanes;

// A group's receptors, from its Create call's lists.
struct Receptors final : CellState {
  std::vector<double> E_rev, tau_syn;
  size_t count() const { return E_rev.size(); }
  bool save(size_t, std::vector<double>&) const override { return true; }  // parameters only
};
const Receptors& receptors(const NeuronGroup& grp) { return static_cast<const Receptors&>(*grp.state); }

// The lanes' system for up to R receptors: y holds V_m, then each receptor's g. A group with
// fewer receptors fills the rest with zero conductances, which change no value and no step.
template <int R>
struct System {
  static constexpr int n = 1 + R;
  double C_m[W], g_L[W], E_L[W], V_reset[W], I_stim[W], I_e[W], stc[W], sfa[W], E_rev[R][W], tau[R][W];
  bool refractory[W];
  void load(const NeuronGroup& grp, size_t i, int l, double i_stim) {
    auto v = [&](int k) { return grp.vars[size_t(k)][i]; };
    C_m[l] = v(Var::C_m), g_L[l] = v(Var::g_L), E_L[l] = v(Var::E_L), V_reset[l] = v(Var::V_reset);
    I_stim[l] = i_stim, I_e[l] = v(Var::I_e);
    stc[l] = gif::sum(grp, i, gif::stc_elems, 0.0);
    sfa[l] = gif::sum(grp, i, gif::sfa_elems, v(V_T_star));
    refractory[l] = grp.counters[i] > 0;
    const Receptors& r = receptors(grp);
    for (size_t q = 0; q < size_t(R); ++q) {
      E_rev[q][l] = q < r.count() ? r.E_rev[q] : 0.0;
      tau[q][l] = q < r.count() ? r.tau_syn[q] : 1.0;
    }
  }
  // NEST's sum, in its order: (I_L + I_stim + I_e + I_syn - I_stc) / C_m, I_L at V_m itself
  void derivatives(const double* y, double* f) const {
#pragma omp simd
    for (int l = 0; l < W; ++l) {
      const double V = refractory[l] ? V_reset[l] : y[l];
      double i_syn = 0.0;
      for (int q = 0; q < R; ++q) i_syn += -y[(1 + q) * W + l] * (V - E_rev[q][l]);
      const double dv = (-g_L[l] * (y[l] - E_L[l]) + I_stim[l] + I_e[l] + i_syn - stc[l]) / C_m[l];
      f[l] = refractory[l] ? 0.0 : dv;
      for (int q = 0; q < R; ++q) f[(1 + q) * W + l] = -y[(1 + q) * W + l] / tau[q][l];
    }
  }
};

template <int R>
struct Solver : ode_neuron::DefaultRules {
  using System = ranvier::System<R>;
  static constexpr int I_stim = Var::I_stim, integration_step = Var::integration_step;

  static void set_tolerance(const NeuronGroup& grp, size_t i, int l, ode::Tolerance& tol) {
    tol.eps_abs[l] = grp.vars[gsl_error_tol][i];
  }
  static void load_state(const NeuronGroup& grp, size_t i, int l, double* y) {
    y[l] = grp.vars[V_m][i];
    const std::vector<double>& g = grp.list(g_list, i);
    for (size_t q = 0; q < size_t(R); ++q) y[(1 + q) * W + l] = q < g.size() ? g[q] : 0.0;
  }
  static void store_state(NeuronGroup& grp, size_t i, int l, const double* y) {
    grp.vars[V_m][i] = y[l];
    std::vector<double>& g = grp.lists[g_list][i];
    for (size_t q = 0; q < g.size(); ++q) g[q] = y[(1 + q) * W + l];
  }
  // After the step: the elements decay, each receptor's g takes its spikes (receptor 1's came
  // with the lane; the others' are read here; negative weights are NEST's error), then the
  // escape-rate draw or the refractory count-down.
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    auto& [grp, i, l, y, ctx, lag] = at;
    grp.vars[I_stc][i] = sys.stc[l];
    grp.vars[E_sfa][i] = sys.sfa[l];
    gif::decay(grp, i);
    const Receptors& r = receptors(grp);
    const InputRow row = r.count() > 1 ? ctx.row(lag) : InputRow{};
    for (size_t q = 0; q < r.count(); ++q) {
      double excitatory = input.excitatory, inhibitory = input.inhibitory;
      if (q > 0) {
        const uint32_t column = grp.input(i, uint32_t(q));
        excitatory = row.excitatory[column], inhibitory = row.inhibitory[column];
        row.excitatory[column] = row.inhibitory[column] = 0.0;
      }
      if (inhibitory != 0.0)
        ctx.fail(std::make_exception_ptr(BadParameterError(
            "synaptic weights onto gif_cond_exp_multisynapse must be non-negative (conductances), got " +
            std::to_string(inhibitory) + " at receptor_type " + std::to_string(q + 1))));
      y[(1 + q) * W + l] += excitatory;
    }
    int32_t& refractory = grp.counters[i];
    if (refractory == 0) {
      if (gif::fires(grp, i, y[l], sys.sfa[l], grp.vars[lambda_0][i], grp.vars[Delta_V][i], ctx,
                     uint64_t(ctx.origin + lag))) {
        refractory = ctx.steps(grp.vars[t_ref][i]);
        ctx.spike(grp, i, lag);
      }
    } else {
      --refractory;
      y[l] = grp.vars[V_reset][i];
    }
  }
};

class GifCondExpMultisynapse final : public receptor_ports::ConductancePorts<g_list, -1> {
 public:
  const char* name() const override { return "gif_cond_exp_multisynapse"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"E_sfa", "I_stc", "V_m"};  // NEST's (a multimeter also takes g_k)
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", -70.0, "mV"},
                                               {"E_sfa", 0.0, "mV"},
                                               {"I_stc", 0.0, "pA"},
                                               {"I_stim", 0.0, "pA"},
                                               {"C_m", 80.0, "pF"},
                                               {"g_L", 4.0, "nS"},
                                               {"E_L", -70.0, "mV"},
                                               {"V_reset", -55.0, "mV"},
                                               {"Delta_V", 0.5, "mV"},
                                               {"V_T_star", -35.0, "mV"},
                                               {"lambda_0", 1.0, "1/s"},
                                               {"t_ref", 4.0, "ms"},
                                               {"I_e", 0.0, "pA"},
                                               {"tau_minus", 20.0, "ms"},
                                               {"tau_minus_triplet", 110.0, "ms"},
                                               {"gsl_error_tol", 1e-3, ""},
                                               {"integration_step", 0.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = [] {
      std::vector<ListVariable> out = gif::list_variables();
      out.push_back({"g", {0.0}, "nS"});
      return out;
    }();
    return lists;
  }
  const std::vector<ListParameter>& list_parameters() const override {
    static const std::vector<ListParameter> lists = {{"E_rev", {0.0}, "mV", "n_receptors", ""},
                                                     {"tau_syn", {2.0}, "ms", "", ""}};
    return lists;
  }
  // tau_syn as long as E_rev (NEST: changing the number of receptors needs both), every entry > 0.
  void validate_lists(const ListKind& kind, const NeuronGroup*) const override {
    check_count(kind);
    const std::vector<double>&e_rev = kind.at("E_rev"), &tau_syn = kind.at("tau_syn");
    if (tau_syn.size() != e_rev.size())
      throw bad_value("tau_syn", listed(tau_syn), "as long as E_rev (" + std::to_string(e_rev.size()) + ")");
    for (double t : tau_syn)
      if (!(t > 0)) throw bad_value("tau_syn", listed(tau_syn), "> 0 throughout");
  }
  void validate(NeuronGroup& grp, size_t i) const override {
    gif::validate(grp, i, {g_L, Delta_V, C_m, tau_minus, gsl_error_tol}, t_ref, lambda_0);
    check_state(grp, i, receptors(grp).count());
  }
  void attach(NeuronGroup& grp, const std::shared_ptr<const CellKind>& kind, uint32_t) const override {
    const auto* lists = dynamic_cast<const ListKind*>(kind.get());
    if (!lists) throw BadParameterError(std::string(name()) + " takes E_rev and tau_syn lists, not a cell description");
    auto r = std::make_unique<Receptors>();
    r->E_rev = lists->at("E_rev");
    r->tau_syn = lists->at("tau_syn");
    size_state(grp, r->count());
    grp.state = std::move(r);
  }
  void calibrate(NeuronGroup& grp, double h) const override {
    gif::calibrate_lists(grp, h);
    ode_neuron::start_steps(grp, integration_step, h);
  }
  void update(NeuronGroup& grp, UpdateContext& ctx) const override {
    ode_neuron::update_padded<Solver>(grp, ctx, receptors(grp).count());
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GifCondExpMultisynapse);

}  // namespace ranvier
