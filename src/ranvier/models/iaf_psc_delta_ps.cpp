// Leaky integrate-and-fire neuron whose input spikes make the membrane potential jump at their
// precise times (NEST's iaf_psc_delta_ps). It fires at the moment a jump takes it over threshold,
// or where the constant current does, found by solving the membrane equation. With
// refractory_input, spikes arriving while refractory are added, discounted by the membrane
// decay, when the refractory period ends.
#include <cfloat>
#include <cmath>

#include "models/iaf_delta_common.hpp"
#include "models/precise_iaf.hpp"

namespace ranvier {
namespace {

using namespace iaf_delta;
enum DeltaPsVar { is_refractory = n_common };
constexpr precise::Indices indices{V_m, E_L, t_ref, I_stim, is_refractory};
enum Internal { expm1_h, n_internal };

// One cell for the step, in NEST's relative terms (U = V_m - E_L).
struct DeltaCell {
  NeuronGroup& g;
  precise::State& s;
  UpdateContext& ctx;
  size_t i;
  int lag;
  double U_th, U_reset, U_min, R, current;  // current: I_stim + I_e

  DeltaCell(NeuronGroup& group, UpdateContext& context, size_t cell, int step)
      : g(group), s(precise::state(group)), ctx(context), i(cell), lag(step) {
    const auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    U_th = v(V_th) - v(E_L), U_reset = v(V_reset) - v(E_L), U_min = v(V_min) - v(E_L);
    R = v(tau_m) / v(C_m);
    current = v(I_stim) + v(I_e);
  }
  double& U() { return s.U[i]; }
  void propagate(double dt) {
    const double e = std::expm1(-dt / g.vars[tau_m][i]), v_inf = R * current;
    U() = -v_inf * e + U() * e + U();
  }
  // The step without input, with the group's propagator.
  void full_step(double expm1_h) {
    U() = -expm1_h * R * current + expm1_h * U() + U();
    U() = U() < U_min ? U_min : U();
    if (U() >= U_th) fire_after_crossing(0.0);
  }
  // Over threshold by the current: the crossing lies before the time `offset`, found exactly.
  void fire_after_crossing(double offset) {
    const double v_inf = R * current;
    const double since = -g.vars[tau_m][i] * std::log((v_inf - U()) / (v_inf - U_th));
    precise::spike(g, ctx, i, lag, offset + since, U_reset);
  }
  void fire_at(double offset) { precise::spike(g, ctx, i, lag, offset, U_reset); }

  // The step's arrivals at this cell, earliest first.
  void step(const precise::Arrival* a, const precise::Arrival* end) {
    const double h = ctx.h;
    const bool held_input = g.vars[refractory_input][i] != 0.0;
    double t = h;  // the time reached, as an offset before the step's end
    while (a != end) {
      const double offset = a->offset;
      const bool end_of_refractoriness = a->end_of_refractoriness;
      double w = a->weight;
      ++a;
      if (!end_of_refractoriness)  // simultaneous spikes act together
        for (; a != end && !a->end_of_refractoriness && a->offset == offset; ++a) w += a->weight;
      if (s.refractory[i]) {
        t = offset;
        if (!end_of_refractoriness) {
          if (held_input) {
            const int64_t stamp = ctx.origin + lag + 1;
            const double to_end =
                double(s.spike_stamp[i] - stamp) * h - (s.spike_offset[i] - offset) + g.vars[t_ref][i];
            s.held[i] += w * std::exp(-to_end / g.vars[tau_m][i]);
          }
        } else {
          s.refractory[i] = 0;
          if (held_input) U() += s.held[i], s.held[i] = 0.0;
          if (U() >= U_th) fire_at(t);
        }
        continue;
      }
      propagate(t - offset);
      t = offset;
      if (U() >= U_th) {  // the current took it over before this input
        fire_after_crossing(t);
        continue;
      }
      U() += w;
      if (U() >= U_th) fire_at(t);
    }
    if (!s.refractory[i] && t > 0) {
      propagate(t);
      if (U() >= U_th) fire_after_crossing(0.0);
    }
  }
};

class IafPscDeltaPs final : public NeuronModel {
 public:
  const char* name() const override { return "iaf_psc_delta_ps"; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"V_m"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = common_variables(-DBL_MAX);
      v.push_back({"is_refractory", 0.0, "", true});
      return v;
    }();
    return vars;
  }
  bool takes_events() const override { return true; }
  bool takes_currents() const override { return true; }
  bool precise_spike_times() const override { return true; }
  void validate(NeuronGroup& g, size_t i) const override {
    validate_common(g, i);
    precise::check_refractory(g.vars[t_ref][i], false);
    if (!(g.vars[V_reset][i] >= g.vars[V_min][i])) throw bad_value("V_reset", g.vars[V_reset][i], ">= V_min");
  }
  void after_set(NeuronGroup& g, size_t i) const override { precise::after_user_set(g, i, indices); }
  void calibrate(NeuronGroup& g, double h) const override {
    precise::attach_state(g, indices);
    g.internals.assign(n_internal, std::vector<double>(g.size()));
    for (size_t i = 0; i < g.size(); ++i) g.internals[expm1_h][i] = std::expm1(-h / g.vars[tau_m][i]);
    g.share_internals_if_uniform();
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    static thread_local std::vector<precise::Arrival> arrivals;
    precise::State& s = precise::state(g);
    for (size_t i = 0; i < g.size(); ++i)
      if (s.U[i] >= g.vars[V_th][i] - g.vars[E_L][i])
        DeltaCell(g, ctx, i, ctx.from).fire_at(precise::first_instant(ctx.h));
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      precise::gather(g, ctx, lag, g.vars[t_ref], arrivals);
      const precise::Arrival *a = arrivals.data(), *end = a + arrivals.size();
      for (size_t i = 0; i < g.size(); ++i) {
        const precise::Arrival* first = a;
        while (a != end && a->cell == i) ++a;
        DeltaCell cell(g, ctx, i, lag);
        if (first != a)
          cell.step(first, a);
        else if (!s.refractory[i])
          cell.full_step(g.internals[expm1_h][g.shared_internals ? 0 : i]);
      }
      precise::finish_step(g, ctx, lag, indices);
    }
  }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscDeltaPs);

}  // namespace ranvier
