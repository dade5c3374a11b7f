// NEST's glif_cond (Teeter et al. 2018): the GLIF mechanisms of glif_common.hpp with
// conductance synapses, one per receptor (receptor_type k from 1; E_rev and tau_syn lists of one
// length), each an alpha function that a spike of weight w makes peak at w nS. The membrane and
// the conductances are integrated, as in NEST, with the adaptive RKF45 solver at 1e-3 absolute
// on every state variable; the membrane sees the after-spike currents' mean of the step before
// and, while refractory, holds (its synaptic current taken at V_reset) as the conductances go on.
// NEST's names: the membrane's conductance is g_m, the receptors' conductances the list g (and
// g_1, g_2, ... to record), their derivatives dg.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "models/glif_common.hpp"
#include "models/ode_neuron.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier {
namespace {

using namespace glif;

enum Own { tau_minus = n_common, tau_minus_triplet, integration_step };
enum OwnList { g = n_common_lists, dg };

// A group's receptors, from its Create call's lists.
struct Receptors final : CellState {
  std::vector<double> E_rev, tau_syn;
  size_t count() const { return E_rev.size(); }
  bool save(size_t, std::vector<double>&) const override { return true; }  // parameters only
};
const Receptors& receptors(const NeuronGroup& grp) { return static_cast<const Receptors&>(*grp.state); }

constexpr int W = ode::lanes;

// The lanes' system for up to R receptors: y holds V_m relative to E_L, then dg and g of each
// receptor. A group with fewer receptors fills the rest with zero conductances, which leave
// every value and the step control as they are.
template <int R>
struct Equations {
  static constexpr int n = 1 + 2 * R;
  double E_L[W], g_m[W], C_m[W], V_reset[W], I[W], asc[W];
  bool refractory[W];
  double E_rev[R][W], tau[R][W];
  void load(const NeuronGroup& grp, size_t i, int l, double i_stim) {
    const auto v = [&](int k) { return grp.vars[size_t(k)][i]; };
    E_L[l] = v(glif::E_L), g_m[l] = v(glif::g_m), C_m[l] = v(glif::C_m), V_reset[l] = v(glif::V_reset) - E_L[l];
    I[l] = i_stim, asc[l] = v(ASCurrents_sum), refractory[l] = grp.counters[i] > 0;
    const Receptors& r = receptors(grp);
    for (size_t q = 0; q < size_t(R); ++q) {
      E_rev[q][l] = q < r.count() ? r.E_rev[q] : 0.0;
      tau[q][l] = q < r.count() ? r.tau_syn[q] : 1.0;
    }
  }
  // NEST's right-hand side, in its order of operations.
  void derivatives(const double* y, double* f) const {
    for (int l = 0; l < W; ++l) {
      const double V = refractory[l] ? V_reset[l] : y[l];
      double i_syn = 0.0;
      for (int q = 0; q < R; ++q) i_syn += y[(2 + 2 * q) * W + l] * (V + E_L[l] - E_rev[q][l]);
      f[l] = refractory[l] ? 0.0 : (-(g_m[l] * V) - i_syn + I[l] + asc[l]) / C_m[l];
      for (int q = 0; q < R; ++q) {
        f[(1 + 2 * q) * W + l] = -y[(1 + 2 * q) * W + l] / tau[q][l];
        f[(2 + 2 * q) * W + l] = y[(1 + 2 * q) * W + l] - y[(2 + 2 * q) * W + l] / tau[q][l];
      }
    }
  }
};

// ode_neuron's model for up to R receptors: the state's way in and out, and after each step
// NEST's order: the GLIF mechanisms and the spike test, then the step's spikes.
template <int R>
struct Solver : ode_neuron::DefaultRules {
  using System = Equations<R>;
  static constexpr int I_stim = glif::I, integration_step = ::ranvier::integration_step;

  static void load_state(const NeuronGroup& grp, size_t i, int l, double* y) {
    y[l] = grp.vars[V_m][i] - grp.vars[E_L][i];
    const std::vector<double>&G = grp.list(g, i), &D = grp.list(dg, i);
    for (size_t q = 0; q < size_t(R); ++q) {
      y[(1 + 2 * q) * W + l] = q < D.size() ? D[q] : 0.0;
      y[(2 + 2 * q) * W + l] = q < G.size() ? G[q] : 0.0;
    }
  }
  static void store_state(NeuronGroup& grp, size_t i, int l, const double* y) {
    grp.vars[V_m][i] = y[l] + grp.vars[E_L][i];
    std::vector<double>&G = grp.lists[g][i], &D = grp.lists[dg][i];
    for (size_t q = 0; q < G.size(); ++q) {
      D[q] = y[(1 + 2 * q) * W + l];
      G[q] = y[(2 + 2 * q) * W + l];
    }
  }
  static void finish(const ode_neuron::Lane& at, const System&, ode_neuron::Input input, double v_old) {
    NeuronGroup& grp = at.g;
    const size_t i = at.i;
    double& V = at.y[at.l];
    if (grp.counters[i] > 0) {
      --grp.counters[i];
      V = v_old;  // held
    } else {
      adapt_threshold(grp, i, v_old, decay_mechanisms(grp, i));
      if (V > theta(grp, i)) {
        V = fire(grp, i, v_old, at.ctx.steps(grp.vars[t_ref][i]));
        at.ctx.spike(grp, i, at.lag);
      }
    }
    grp.vars[threshold][i] = theta(grp, i) + grp.vars[E_L][i];
    const Receptors& r = receptors(grp);
    const InputRow row = r.count() > 1 ? at.ctx.row(at.lag) : InputRow{};
    for (size_t q = 0; q < r.count(); ++q) {  // receptor 1's input came with the lane
      double w = input.excitatory + input.inhibitory;
      if (q > 0) {
        const uint32_t column = grp.input(i, uint32_t(q));
        w = row.excitatory[column] + row.inhibitory[column];
        row.excitatory[column] = row.inhibitory[column] = 0.0;
      }
      at.y[(1 + 2 * q) * W + at.l] += w * (M_E / r.tau_syn[q]);
    }
  }
};

class GlifCond final : public receptor_ports::ConductancePorts<g, dg> {
 public:
  const char* name() const override { return "glif_cond"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "ASCurrents_sum", "I", "threshold", "threshold_spike", "threshold_voltage"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = common_variables("g_m");
      v.insert(v.end(),
               {{"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}, {"integration_step", 0.0, "ms"}});
      return v;
    }();
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = [] {
      std::vector<ListVariable> v = common_lists();
      v.insert(v.end(), {{"g", {0.0, 0.0}, "nS"}, {"dg", {0.0, 0.0}, "nS/ms"}});
      return v;
    }();
    return lists;
  }
  const std::vector<ListParameter>& list_parameters() const override {
    static const std::vector<ListParameter> lists = {{"E_rev", {0.0, -85.0}, "mV", "", "g"},
                                                     {"tau_syn", {0.2, 2.0}, "ms", "", ""}};
    return lists;
  }
  void validate_lists(const ListKind& kind, const NeuronGroup*) const override {
    const size_t n = kind.at("E_rev").size();
    check_count(kind);
    if (kind.at("tau_syn").size() != n)
      throw bad_value("tau_syn", listed(kind.at("tau_syn")), "as long as E_rev (" + std::to_string(n) + ")");
    for (double t : kind.at("tau_syn"))
      if (!(t > 0)) throw bad_value("tau_syn", listed(kind.at("tau_syn")), "> 0 throughout");
  }
  void on_set(NeuronGroup& grp, size_t i, const SetContext& set) const override { glif::on_set(grp, i, set); }
  void validate(NeuronGroup& grp, size_t i) const override {
    glif::validate(grp, i, variables());
    if (!(grp.vars[tau_minus][i] > 0)) throw bad_value("tau_minus", grp.vars[tau_minus][i], "> 0");
    check_state(grp, i, receptors(grp).count());
  }

  // The receptors from the Create call's lists.
  void attach(NeuronGroup& grp, const std::shared_ptr<const CellKind>& kind, uint32_t) const override {
    const auto* lists = dynamic_cast<const ListKind*>(kind.get());
    if (!lists) throw BadParameterError("glif_cond takes E_rev and tau_syn lists, not a cell description");
    auto r = std::make_unique<Receptors>();
    r->E_rev = lists->at("E_rev");
    r->tau_syn = lists->at("tau_syn");
    size_state(grp, r->count());
    grp.state = std::move(r);
  }
  void calibrate(NeuronGroup& grp, double h) const override {
    grp.internals.assign(n_fixed, std::vector<double>(grp.size()));
    glif::calibrate(grp, h);
    ode_neuron::start_steps(grp, integration_step, h);  // NEST starts at the resolution
  }
  void update(NeuronGroup& grp, UpdateContext& ctx) const override {
    ode_neuron::update_padded<Solver>(grp, ctx, receptors(grp).count());
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(GlifCond);

}  // namespace ranvier
