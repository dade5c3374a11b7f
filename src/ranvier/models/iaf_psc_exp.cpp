// Leaky integrate-and-fire neuron with exponentially decaying post-synaptic currents,
// integrated exactly on the grid (NEST's iaf_psc_exp), and the same with an absolute and a
// total refractory period (NEST's iaf_psc_exp_htum, after Hill and Tononi 2005): V_m stays at
// V_reset for t_ref_abs after a spike, then integrates, but the cell cannot fire again before
// t_ref_tot has passed. iaf_psc_exp's threshold is soft where its width delta > 0 (NEST's escape
// noise); iaf_psc_exp_htum's is hard.
#include <algorithm>
#include <cmath>

#include "models/iaf_exp_currents.hpp"

namespace ranvier {
namespace {

using namespace iaf;
using namespace iaf_exp;

enum ExpVar { delta = n_common, rho };

// NEST's escape noise of iaf_psc_exp (iaf_common.hpp's soft_threshold_fires).
struct SoftThreshold : Refractoriness {
  bool crosses(NeuronGroup& g, size_t i, double over, const UpdateContext& ctx, int64_t stamp) const {
    return soft_threshold_fires(g, i, over, g.vars[delta][i], g.vars[rho][i], ctx, stamp);
  }
};

class IafPscExp : public NeuronModel {
 public:
  const char* name() const override { return "iaf_psc_exp"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "I_syn_ex", "I_syn_in"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = common_variables();
      v.insert(v.end(), {{"delta", 0.0, "mV"}, {"rho", 0.01, "Hz"}});  // NEST's soft threshold
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    validate_common(g, i);
    if (!(g.vars[delta][i] >= 0)) throw bad_value("delta", g.vars[delta][i], ">= 0");
    if (!(g.vars[rho][i] >= 0)) throw bad_value("rho", g.vars[rho][i], ">= 0");
  }

  void calibrate(NeuronGroup& g, double h) const override {
    iaf_exp::calibrate(g, h);
    g.counters.resize(g.size(), 0);
    g.share_internals_if_uniform();
  }

  void after_set(NeuronGroup& g, size_t i) const override { sync_rest(g, i); }
  // The hard threshold unless some cell has a width (its draws cost only there).
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    const double* width = g.var(delta);
    if (std::any_of(width, width + g.size(), [](double d) { return d >= 1e-10; }))
      update_steps<IafPscExp>(g, ctx, I_stim, SoftThreshold{});
    else
      update_steps<IafPscExp>(g, ctx);
  }

  // One step of every neuron of the group: V_m - E_L into the scratch array, the currents
  // advanced and the step's input taken. ps is the stride of the internals (0: shared).
  template <size_t ps>
  static void propagate(NeuronGroup& g, const InputRow& in) {
    const size_t n = g.size();
    const StepArrays a = step_arrays(g, in);
    const double *p20 = g.internal(P20), *p22 = g.internal(P22);
    const double *p11e = g.internal(P11_ex), *p21e = g.internal(P21_ex);
    const double *p11i = g.internal(P11_in), *p21i = g.internal(P21_in);
#pragma omp simd
    for (size_t i = 0; i < n; ++i) {
      const size_t p = i * ps;
      const double rest = a.rest[i];
      // NEST's sum, in its order
      const double moved = rest * p22[p] + a.Iex[i] * p21e[p] + a.Iin[i] * p21i[p] + (a.Ie[i] + a.Istim[i]) * p20[p];
      const int32_t r = a.refractory[i];
      a.y[i] = r == 0 ? moved : rest;
      a.refractory[i] = r - (r != 0);
      a.Iex[i] = a.Iex[i] * p11e[p] + a.ex[i];
      a.Iin[i] = a.Iin[i] * p11i[p] + a.inh[i];
      a.ex[i] = a.inh[i] = 0.0;
    }
  }
};

enum HtumVar { t_ref_tot = n_common };  // iaf's t_ref is NEST's t_ref_abs here

// The total refractory period counts down in second_counters, from the spike on; the cell
// fires only once it has run out.
struct TotalRefractoriness {
  bool may_fire(NeuronGroup& g, size_t i) const {
    int32_t& left = g.second_counters[i];
    if (left == 0) return true;
    --left;
    return false;
  }
  void fired(NeuronGroup& g, size_t i, UpdateContext& ctx) const {
    g.counters[i] = ctx.steps(g.vars[t_ref][i]);
    g.second_counters[i] = ctx.steps(g.vars[t_ref_tot][i]);
  }
};

class IafPscExpHtum final : public IafPscExp {
 public:
  const char* name() const override { return "iaf_psc_exp_htum"; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = common_variables();
      v[t_ref].name = "t_ref_abs";
      v.push_back({"t_ref_tot", 2.0, "ms"});
      return v;
    }();
    return vars;
  }
  // NEST's checks: both periods at least one step (UpdateContext rounds them at each spike).
  void validate(NeuronGroup& g, size_t i) const override {
    validate_common(g, i);
    const double abs = g.vars[t_ref][i], tot = g.vars[t_ref_tot][i];
    if (!(abs > 0)) throw bad_value("t_ref_abs", abs, "> 0");
    if (!(tot >= abs)) throw bad_value("t_ref_tot", tot, ">= t_ref_abs = " + std::to_string(abs));
  }
  void calibrate(NeuronGroup& g, double h) const override {
    IafPscExp::calibrate(g, h);
    g.second_counters.resize(g.size(), 0);
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    update_steps<IafPscExp>(g, ctx, I_stim, TotalRefractoriness{});
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscExp);
RANVIER_REGISTER_NEURON_MODEL(IafPscExpHtum);

}  // namespace ranvier
