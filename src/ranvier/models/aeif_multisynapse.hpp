// NEST's aeif_cond_alpha_multisynapse and aeif_cond_beta_multisynapse: the adaptive exponential
// integrate-and-fire membrane (aeif_common.hpp) with any number of conductance receptors, each
// with its reversal potential E_rev and its time constants, integrated with the adaptive RKF45
// solver at NEST's tolerance. A spike of weight w at receptor k (receptor_type k, from 1) makes
// its conductance g_k peak at w nS. The two models differ in their time-constant lists only
// (Kinetics below). Per Create call the lists are one (as every list parameter in Ranvier);
// per neuron the state is V_m, w and each receptor's g and dg (NEST's lists of that name).
#pragma once
#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "models/aeif_common.hpp"
#include "models/ode_neuron.hpp"
#include "models/receptor_ports.hpp"

namespace ranvier::aeif_multisynapse {

enum Var {
  V_m,
  E_L,
  C_m,
  g_L,
  t_ref,
  V_th,
  V_peak,
  V_reset,
  a,
  b,
  Delta_T,
  tau_w,
  I_e,
  gsl_error_tol,
  tau_minus,
  tau_minus_triplet,
  w,
  I_stim,
  integration_step
};
enum List { g, dg };  // list variables: each receptor's conductance and its derivative
constexpr aeif::Layout layout{E_L, C_m, g_L,     t_ref, V_th, V_peak,        V_reset,
                              a,   b,   Delta_T, tau_w, I_e,  gsl_error_tol, tau_minus};

// A group's receptors: their parameters from its Create call's lists, and per receptor the
// rise and decay time constants and the jump of dg per unit of weight (NEST's g0).
struct Receptors final : CellState {
  std::vector<double> E_rev, rise, decay, g0;
  size_t count() const { return E_rev.size(); }
  bool save(size_t, std::vector<double>&) const override { return true; }  // parameters only
};
inline const Receptors& receptors(const NeuronGroup& grp) { return static_cast<const Receptors&>(*grp.state); }

// The lanes' system for up to R receptors: y holds V_m, w, then dg and g of each receptor.
// A group with fewer receptors fills the rest with zero conductances, which leave every value
// and the step control as they are (a sum gains +0, the error its largest component).
template <int R>
struct System {
  static constexpr int n = 2 + 2 * R, W = ode::lanes;
  aeif::Membrane<layout> m;
  double E_rev[R][W], rise[R][W], decay[R][W];
  void load(const NeuronGroup& grp, size_t i, int l, double i_stim) {
    m.load(grp, i, l, i_stim);
    const Receptors& r = receptors(grp);
    for (size_t q = 0; q < size_t(R); ++q) {
      const bool used = q < r.count();
      E_rev[q][l] = used ? r.E_rev[q] : 0.0;
      rise[q][l] = used ? r.rise[q] : 1.0;
      decay[q][l] = used ? r.decay[q] : 1.0;
    }
  }
  void derivatives(const double* y, double* f) const {
#pragma omp simd
    for (int l = 0; l < W; ++l) {
      // NEST's I_syn = sum_k g_k (E_rev_k - V)
      const auto synaptic = [&](double V, double x) {
        double i_syn = 0.0;
        for (int q = 0; q < R; ++q) i_syn += y[(3 + 2 * q) * W + l] * (E_rev[q][l] - V);
        return x + i_syn;
      };
      m.derivatives(l, y[l], y[W + l], synaptic, f[l], f[W + l]);
      for (int q = 0; q < R; ++q) {
        f[(2 + 2 * q) * W + l] = -y[(2 + 2 * q) * W + l] / rise[q][l];
        f[(3 + 2 * q) * W + l] = y[(2 + 2 * q) * W + l] - y[(3 + 2 * q) * W + l] / decay[q][l];
      }
    }
  }
};

// ode_neuron's model for up to R receptors: the solver's rules and the state's way in and out.
template <int R>
struct Solver : aeif::Rules<1, layout> {
  using System = aeif_multisynapse::System<R>;
  static constexpr int I_stim = aeif_multisynapse::I_stim, integration_step = aeif_multisynapse::integration_step;
  static constexpr int W = ode::lanes;

  static void load_state(const NeuronGroup& grp, size_t i, int l, double* y) {
    y[l] = grp.vars[V_m][i];
    y[W + l] = grp.vars[w][i];
    const std::vector<double>&G = grp.list(g, i), &D = grp.list(dg, i);
    for (size_t q = 0; q < size_t(R); ++q) {
      y[(2 + 2 * q) * W + l] = q < D.size() ? D[q] : 0.0;
      y[(3 + 2 * q) * W + l] = q < G.size() ? G[q] : 0.0;
    }
  }
  static void store_state(NeuronGroup& grp, size_t i, int l, const double* y) {
    grp.vars[V_m][i] = y[l];
    grp.vars[w][i] = y[W + l];
    std::vector<double>&G = grp.lists[g][i], &D = grp.lists[dg][i];
    for (size_t q = 0; q < G.size(); ++q) {
      D[q] = y[(2 + 2 * q) * W + l];
      G[q] = y[(3 + 2 * q) * W + l];
    }
  }
  // After the step: each receptor's dg jumps by its spikes' weights times g0 (receptor 1's
  // input came with the lane; the others' are read here). Negative weights are NEST's error.
  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double) {
    NeuronGroup& grp = at.g;
    const Receptors& r = receptors(grp);
    aeif::Rules<1, layout>::count_down(grp, at.i, sys, at.l);
    const InputRow row = r.count() > 1 ? at.ctx.row(at.lag) : InputRow{};
    for (size_t q = 0; q < r.count(); ++q) {
      double excitatory = input.excitatory, inhibitory = input.inhibitory;
      if (q > 0) {
        const uint32_t column = grp.input(at.i, uint32_t(q));
        excitatory = row.excitatory[column], inhibitory = row.inhibitory[column];
        row.excitatory[column] = row.inhibitory[column] = 0.0;
      }
      if (inhibitory != 0.0)
        at.ctx.fail(std::make_exception_ptr(BadParameterError(
            std::string("synaptic weights onto ") + grp.model->name() + " must be positive (conductances), got " +
            std::to_string(inhibitory) + " at receptor_type " + std::to_string(q + 1))));
      at.y[(2 + 2 * q) * W + at.l] += excitatory * r.g0[q];
    }
  }
};

// A model's time constants: names, defaults and checks of its lists, and per receptor its
// rise and decay time constants and g0.
template <class Kinetics>
class Model final : public receptor_ports::ConductancePorts<g, dg> {
 public:
  const char* name() const override { return Kinetics::name; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "w"};  // and each receptor's g_k
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = {{"V_m", -70.6, "mV"},
                                               {"E_L", -70.6, "mV"},
                                               {"C_m", 281.0, "pF"},
                                               {"g_L", 30.0, "nS"},
                                               {"t_ref", 0.0, "ms"},
                                               {"V_th", -50.4, "mV"},
                                               {"V_peak", 0.0, "mV"},
                                               {"V_reset", -60.0, "mV"},
                                               {"a", 4.0, "nS"},
                                               {"b", 80.5, "pA"},
                                               {"Delta_T", 2.0, "mV"},
                                               {"tau_w", 144.0, "ms"},
                                               {"I_e", 0.0, "pA"},
                                               {"gsl_error_tol", 1e-6, ""},
                                               {"tau_minus", 20.0, "ms"},
                                               {"tau_minus_triplet", 110.0, "ms"},
                                               {"w", 0.0, "pA"},
                                               {"I_stim", 0.0, "pA"},
                                               {"integration_step", 0.0, "ms"}};
    return vars;
  }
  const std::vector<ListVariable>& list_variables() const override {
    static const std::vector<ListVariable> lists = {{"g", {0.0}, "nS"}, {"dg", {0.0}, "nS/ms"}};
    return lists;
  }
  const std::vector<ListParameter>& list_parameters() const override {
    static const std::vector<ListParameter> lists = Kinetics::lists();
    return lists;
  }
  // Every list as long as E_rev (NEST: changing the number of receptors needs them all).
  void validate_lists(const ListKind& kind, const NeuronGroup*) const override {
    const size_t n = kind.at("E_rev").size();
    this->check_count(kind);
    for (const ListParameter& p : list_parameters())
      if (kind.at(p.name).size() != n)
        throw bad_value(
            p.name, listed(kind.at(p.name)),
            "as long as E_rev (" + std::to_string(n) + "): a change of the number of receptors sets every list");
    Kinetics::validate(kind);
  }
  void validate(NeuronGroup& grp, size_t i) const override {
    aeif::validate_membrane<layout>(grp, i);
    this->check_state(grp, i, receptors(grp).count());
  }

  // The receptors from the Create call's lists.
  void attach(NeuronGroup& grp, const std::shared_ptr<const CellKind>& kind, uint32_t) const override {
    const auto* lists = dynamic_cast<const ListKind*>(kind.get());
    if (!lists)
      throw BadParameterError(std::string(name()) + " takes E_rev and time-constant lists, not a cell description");
    auto r = std::make_unique<Receptors>();
    r->E_rev = lists->at("E_rev");
    Kinetics::time_constants(*lists, r->rise, r->decay, r->g0);
    this->size_state(grp, r->count());
    grp.state = std::move(r);
  }
  void calibrate(NeuronGroup& grp, double h) const override { ode_neuron::start_steps(grp, integration_step, h); }
  void update(NeuronGroup& grp, UpdateContext& ctx) const override {
    ode_neuron::update_padded<Solver>(grp, ctx, receptors(grp).count());
  }
};

}  // namespace ranvier::aeif_multisynapse
