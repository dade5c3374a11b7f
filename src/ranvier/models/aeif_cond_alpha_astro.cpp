// NEST's aeif_cond_alpha_astro: aeif_cond_alpha (models/aeif_cond_alpha.hpp) with the slow inward
// current of astrocytes (astrocyte_lr_1994, through sic_connection) added to its membrane
// current as its current input is: what arrives in a step drives the next one, recorded as
// I_SIC. The current comes in at a port of its own (kernel/coupling.hpp adds it there).
#include "models/aeif_cond_alpha.hpp"
#include "models/coupled_model.hpp"

namespace ranvier {
namespace {

using namespace aeif;
enum AstroVar { I_SIC = n_alpha };
constexpr uint32_t sic_port = 1;

class AeifCondAlphaAstro final : public AeifCondAlpha, public CoupledModel {
 public:
  struct System : AeifCondAlpha::System {
    void load(const NeuronGroup& g, size_t i, int l, double i_stim) {
      AeifCondAlpha::System::load(g, i, l, i_stim, g.vars[I_SIC][i]);
    }
  };

  const char* name() const override { return "aeif_cond_alpha_astro"; }
  std::optional<std::vector<std::string>> recordables() const override {
    return std::vector<std::string>{"V_m", "g_ex", "g_in", "w", "I_SIC"};
  }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [this] {
      auto v = AeifCondAlpha::own_variables();
      v.push_back({"I_SIC", 0.0, "pA"});
      return v;
    }();
    return vars;
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.ports = sic_port + 1;
    g.state = std::make_unique<CouplingBuffers>();
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override { ode_neuron::update<AeifCondAlphaAstro>(g, ctx); }

  static void finish(const ode_neuron::Lane& at, const System& sys, ode_neuron::Input input, double v_before) {
    AeifCondAlpha::finish(at, sys, input, v_before);
    const InputRow in = at.ctx.row(at.lag);
    const uint32_t column = at.g.input(at.i, sic_port);
    at.g.vars[I_SIC][at.i] = in.current[column];
    in.current[column] = 0.0;
  }

  const CoupledModel* coupled_model() const override { return this; }
  // Spikes in and out, slow inward currents in.
  bool joins(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::none || kind == SecondaryEvent::slow_inward_current;
  }
  bool sends(SecondaryEvent kind) const override { return kind == SecondaryEvent::none; }
  bool sends_values() const override { return false; }
  uint32_t port_of(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::slow_inward_current ? sic_port : 0;
  }
  bool relax(NeuronGroup&, UpdateContext&, double) const override { return true; }
  double held(const NeuronGroup&, size_t) const override { return 0.0; }
};

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifCondAlphaAstro);

}  // namespace ranvier
