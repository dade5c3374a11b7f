// One cell of a current-based precise model (iaf_psc_exp_ps, iaf_psc_alpha_ps) as
// precise::update_current_based moves it: the iaf models' parameters in NEST's relative terms
// (U = V_m - E_L), the membrane and synaptic state, and the threshold crossing since an earlier
// state. Cell derives from PscCell<Cell> and adds its synapses' state and propagation.
#pragma once
#include <cmath>

#include "models/iaf_common.hpp"
#include "models/precise_iaf.hpp"

namespace ranvier::precise {

enum PscVar { V_min = iaf::n_common, is_refractory, n_psc };  // after the iaf models' variables
inline std::vector<Variable> psc_variables() {
  auto v = iaf::common_variables();
  v.push_back({"V_min", -INFINITY, "mV"});
  v.push_back({"is_refractory", 0.0, "", true});
  return v;
}
constexpr Indices psc_indices{iaf::V_m, iaf::E_L, iaf::t_ref, iaf::I_stim, is_refractory};

template <class Cell>
struct PscCell {
  double U, I_ex, I_in, y0;  // y0: the step's current (from generators)
  double U_th, U_reset, U_min, I_e, tau_m, C_m, tau_ex, tau_in;
  const NeuronGroup* g;
  size_t p;  // the cell's column in the internals

  PscCell(const NeuronGroup& group, size_t i)
      : U(state(group).U[i]),
        I_ex(group.vars[iaf::I_syn_ex][i]),
        I_in(group.vars[iaf::I_syn_in][i]),
        y0(group.vars[iaf::I_stim][i]),
        U_th(group.vars[iaf::V_th][i] - group.vars[iaf::E_L][i]),
        U_reset(group.vars[iaf::V_reset][i] - group.vars[iaf::E_L][i]),
        U_min(group.vars[V_min][i] - group.vars[iaf::E_L][i]),
        I_e(group.vars[iaf::I_e][i]),
        tau_m(group.vars[iaf::tau_m][i]),
        C_m(group.vars[iaf::C_m][i]),
        tau_ex(group.vars[iaf::tau_syn_ex][i]),
        tau_in(group.vars[iaf::tau_syn_in][i]),
        g(&group),
        p(group.shared_internals ? 0 : i) {}

  double internal(int k) const { return g->internals[size_t(k)][p]; }
  void store(NeuronGroup& group, size_t i) const {
    state(group).U[i] = U;
    group.vars[iaf::I_syn_ex][i] = I_ex;
    group.vars[iaf::I_syn_in][i] = I_in;
  }
  // Whether U may have reached threshold in the step that led here (crossing tells when).
  bool may_have_crossed() const { return U >= U_th; }
  // The time after `before` within dt at which U reached threshold, NaN if it ends below.
  double crossing(const Cell& before, double dt, UpdateContext& ctx, int lag) const {
    if (!may_have_crossed()) return NAN;
    return crossing_time([&](double t) { return before.U_after(t) - U_th; }, dt, ctx, lag);
  }
};

// What the current-based precise models share beyond their cells: input by events and
// currents, precise spike times, NEST's checks, and the update.
template <class Cell>
class PscModel : public NeuronModel {
 public:
  bool takes_events() const override { return true; }
  bool takes_currents() const override { return true; }
  bool precise_spike_times() const override { return true; }
  void validate(NeuronGroup& g, size_t i) const override {
    iaf::validate_common(g, i);
    check_refractory(g.vars[iaf::t_ref][i], refractory_may_be_zero());
    if (!(g.vars[iaf::V_reset][i] >= g.vars[V_min][i])) throw bad_value("V_reset", g.vars[iaf::V_reset][i], ">= V_min");
  }
  void after_set(NeuronGroup& g, size_t i) const override { after_user_set(g, i, psc_indices); }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { update_current_based<Cell>(g, ctx, psc_indices); }

 protected:
  virtual bool refractory_may_be_zero() const { return false; }
  // The state, and room for n internals.
  void prepare(NeuronGroup& g, size_t n) const {
    attach_state(g, psc_indices);
    g.internals.assign(n, std::vector<double>(g.size()));
  }
};

}  // namespace ranvier::precise
