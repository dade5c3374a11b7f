// Leaky integrate-and-fire neurons with exponential post-synaptic currents and precise spike
// times (NEST's iaf_psc_exp_ps, and iaf_psc_exp_ps_lossless, which also finds crossings that
// begin and end within one ministep: Krishnan et al. 2018). Input acts at its offset within
// the step; the crossing is found by regula falsi.
#include <cmath>
#include <type_traits>

#include "models/precise_psc.hpp"
#include "models/propagators.hpp"

namespace ranvier {
namespace {

using namespace iaf;
enum ExpPsVar { I_syn = precise::n_psc };
enum Internal { P20, P21_ex, P21_in, expm1_tau_m, exp_tau_ex, exp_tau_in, n_internal };

// One cell of iaf_psc_exp_ps for the step.
struct ExpCell : precise::PscCell<ExpCell> {
  using PscCell::PscCell;
  void full_step(bool refractory, double) {
    if (!refractory) {
      U = internal(P20) * (I_e + y0) + internal(P21_ex) * I_ex + internal(P21_in) * I_in + internal(expm1_tau_m) * U +
          U;
      U = U < U_min ? U_min : U;
    }
    I_ex *= internal(exp_tau_ex);
    I_in *= internal(exp_tau_in);
  }
  // U after dt from this state (not refractory), as NEST writes it for a ministep.
  double U_after(double dt) const {
    return -tau_m / C_m * std::expm1(-dt / tau_m) * (I_e + y0) + propagator_exp_current(tau_ex, tau_m, C_m, dt) * I_ex +
           propagator_exp_current(tau_in, tau_m, C_m, dt) * I_in + U * std::exp(-dt / tau_m);
  }
  void propagate(double dt, bool refractory) {
    if (!refractory) U = U_after(dt);
    I_ex *= std::exp(-dt / tau_ex);
    I_in *= std::exp(-dt / tau_in);
  }
  void add(double w) { (w >= 0.0 ? I_ex : I_in) += w; }
};

// The lossless test (Krishnan et al. 2018, in NEST's form): whether the trajectory from
// `before` reaches threshold within dt even where it ends below it, and the latest time by
// which it has, which brackets the root.
struct LosslessCell : ExpCell {
  using ExpCell::ExpCell;
  void store(NeuronGroup& group, size_t i) const {
    PscCell::store(group, i);
    group.vars[I_syn][i] = I_ex + I_in;
  }
  bool may_have_crossed() const { return true; }  // also where it ends below threshold
  double crossing(const LosslessCell& before, double dt, UpdateContext& ctx, int lag) const {
    const double t = latest_crossing(before, dt);
    if (std::isnan(t)) return NAN;
    return precise::crossing_time([&](double s) { return before.U_after(s) - U_th; }, t, ctx, lag);
  }

 private:
  double latest_crossing(const LosslessCell& b, double dt) const {
    const double ts = tau_ex, tm = tau_m, c = C_m;
    const double a1 = tm * ts, a2 = tm * (tm - ts), a3 = c * U_th * (tm - ts), a4 = c * (tm - ts);
    const double b1 = -tm * tm, b2 = tm * ts, b3 = tm * c * U_th, b4 = -c * (tm - ts);
    const double c1 = tm / c, c2 = -tm * ts / (c * (tm - ts)), c3 = tm * tm / (c * (tm - ts)), c4 = ts / tm,
                 c5 = c * U_th / tm, c6 = 1 - ts / tm;
    const double I0 = b.I_ex + b.I_in, V0 = b.U, Ie = b.y0 + I_e;
    const double e_s = std::expm1(dt / ts), e_m = std::expm1(dt / tm), e_ms = std::expm1(dt / tm - dt / ts);
    const double f = (a1 * I0 * e_ms + e_m * (a3 - Ie * a2) + a3) / a4;
    if (V0 < ((I0 + Ie) * (b1 * e_m + b2 * e_s) + b3 * (e_m - e_s)) / (b4 * e_s) && V0 <= f) return NAN;
    if (V0 >= f) return dt;
    if (V0 < c1 * Ie + c2 * I0 + c3 * std::pow(I0, c4) * std::pow(c5 - Ie, c6)) return NAN;
    return (a1 / tm * ts) * std::log(b1 * I0 / (a2 * Ie - a1 * I0 - a4 * V0));
  }
};

template <class Cell>
class IafPscExpPs final : public precise::PscModel<Cell> {
  static constexpr bool lossless_ = std::is_same_v<Cell, LosslessCell>;

 public:
  const char* name() const override { return lossless_ ? "iaf_psc_exp_ps_lossless" : "iaf_psc_exp_ps"; }
  std::optional<std::vector<std::string>> recordables() const override {
    if (lossless_) return std::vector<std::string>{"I_syn", "I_syn_ex", "I_syn_in", "V_m"};
    return std::vector<std::string>{"V_m"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      auto v = precise::psc_variables();
      if (lossless_) v.push_back({"I_syn", 0.0, "pA"});
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    precise::PscModel<Cell>::validate(g, i);
    if (lossless_ && g.vars[tau_syn_ex][i] != g.vars[tau_syn_in][i])
      throw bad_value("tau_syn_ex", g.vars[tau_syn_ex][i], "equal to tau_syn_in (iaf_psc_exp_ps_lossless)");
  }
  void calibrate(NeuronGroup& g, double h) const override {
    this->prepare(g, n_internal);
    for (size_t i = 0; i < g.size(); ++i) {
      const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
      g.internals[P20][i] = -tm / cm * std::expm1(-h / tm);
      g.internals[P21_ex][i] = propagator_exp_current(g.vars[tau_syn_ex][i], tm, cm, h);
      g.internals[P21_in][i] = propagator_exp_current(g.vars[tau_syn_in][i], tm, cm, h);
      g.internals[expm1_tau_m][i] = std::expm1(-h / tm);
      g.internals[exp_tau_ex][i] = std::exp(-h / g.vars[tau_syn_ex][i]);
      g.internals[exp_tau_in][i] = std::exp(-h / g.vars[tau_syn_in][i]);
    }
    g.share_internals_if_uniform();
  }

 protected:
  bool refractory_may_be_zero() const override { return lossless_; }  // NEST's lossless model allows t_ref = 0
};

using IafPscExpPsModel = IafPscExpPs<ExpCell>;
using IafPscExpPsLossless = IafPscExpPs<LosslessCell>;

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(IafPscExpPsModel);
RANVIER_REGISTER_NEURON_MODEL(IafPscExpPsLossless);

}  // namespace ranvier
