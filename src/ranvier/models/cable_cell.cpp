// Multicompartment cable cells (Peyser 2017; NEURON's and Arbor's conventions) as a neuron
// model: a group's cells are one cable::CableGroup, advanced in dt sub-steps of the network
// step; input port p of a cell is its p-th synapse. Its ports take events: an event arriving
// in a network step acts from the start of the dt step that holds its time (what Arbor 0.12
// does when run), found from its offset in tics; one on the grid arrives at the step's end and
// acts from the next step's first sub-step.
#include <algorithm>
#include <cmath>

#include "cable/cable_group.hpp"
#include "cable/cell_kind.hpp"
#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

struct CableState final : CellState {
  CableState(std::shared_ptr<const cable::Description> d, size_t n, const cable::CableGroup::Variation& vary)
      : cells(std::move(d), n, vary) {}
  cable::CableGroup cells;
  size_t detector_cv = 0;
  int substeps = 1;  // dt steps per network step
  std::vector<std::pair<uint32_t, double>> crossings;
  struct Event {
    uint32_t substep, cell, port;  // acts before this sub-step
    double weight;
  };
  std::vector<Event> due;       // this step's events, by sub-step
  std::vector<Event> arriving;  // at the end of the last step updated
  // A cell's compartments, then its events arriving at the last step's end: their count, then
  // (port, weight) each.
  bool save(size_t i, std::vector<double>& out) const override {
    cells.save(i, out);
    const size_t at = out.size();
    out.push_back(0.0);
    for (const Event& e : arriving)
      if (e.cell == i) out.insert(out.end(), {double(e.port), e.weight}), ++out[at];
    return true;
  }
  void load(size_t i, const double* from, const double* end) override {
    from = cells.load(i, from);
    const size_t events = from < end ? size_t(*from++) : 0;
    for (size_t k = 0; k < events; ++k, from += 2) arriving.push_back({0, uint32_t(i), uint32_t(from[0]), from[1]});
  }
};

CableState& state_of(const NeuronGroup& g) { return static_cast<CableState&>(*g.state); }

class CableCell final : public NeuronModel {
 public:
  enum : int { V_m };
  const char* name() const override { return "cable_cell"; }
  const std::vector<Variable>& own_variables() const override {
    // V_m: the voltage of the detector's CV; setting it sets every CV of the cell.
    static const std::vector<Variable> vars{{"V_m", -65.0, "mV"}};
    return vars;
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    const auto* cable_kind = dynamic_cast<const cable::CableKind*>(kind.get());
    if (!cable_kind)
      throw BadParameterError("cable_cell needs a cell description (morphology, mechanisms, ...) as params");
    const cable::Description& d = *cable_kind->description;
    g.ports = uint32_t(d.synapses.size());
    cable::CableGroup::Variation vary;  // a cell's values are those of its place in the Create call
    if (!cable_kind->per_cell.empty())
      vary = [&](size_t i, cable::Description& mine) { cable_kind->vary(g.gids[i] - first_gid, mine); };
    auto state = std::make_unique<CableState>(cable_kind->description, g.size(), vary);
    state->detector_cv = state->cells.cv_of(d.detector);
    for (size_t i = 0; i < g.size(); ++i) g.vars[V_m][i] = state->cells.voltage(i, state->detector_cv);
    g.state = std::move(state);
  }
  int32_t site(const CellKind* kind, const CellLocation& where) const override {
    const auto& cells = *static_cast<const cable::CableKind*>(kind);
    return int32_t(cells.layout.node_of(cable::locate(*cells.description, where, "location")));
  }
  double probe_value(const NeuronGroup& g, const Probe& p, int variable) const override {
    return p.site < 0 ? g.vars[size_t(variable)][p.neuron] : state_of(g).cells.voltage(p.neuron, size_t(p.site));
  }
  bool precise_spike_times() const override { return true; }
  // Port p is synapse p (Python turns names into ports); currents enter through the
  // description's clamps.
  uint32_t port(const CellKind* kind, uint32_t receptor, bool current) const override {
    const auto& d = *static_cast<const cable::CableKind*>(kind)->description;
    if (current) throw BadParameterError("cable cells take currents through the current_clamps of their description");
    if (receptor >= d.synapses.size())
      throw bad_value("receptor_type", receptor,
                      "a synapse of the cells (they have " + std::to_string(d.synapses.size()) + ")");
    return receptor;
  }
  // About one point-neuron step per node and dt sub-step.
  uint32_t cost(const CellKind* kind, double h) const override {
    const auto& cells = *static_cast<const cable::CableKind*>(kind);
    return uint32_t(cells.layout.size()) * uint32_t(std::max(1.0, std::round(h / cells.description->dt)));
  }
  bool takes_events() const override { return true; }
  void validate(NeuronGroup&, size_t) const override {}
  void after_set(NeuronGroup& g, size_t i) const override {
    CableState& s = state_of(g);
    const double v = g.vars[V_m][i];
    if (v == s.cells.voltage(i, s.detector_cv)) return;
    for (size_t cv = 0; cv < s.cells.cvs_per_cell(); ++cv) s.cells.voltage(i, cv) = v;
  }
  void calibrate(NeuronGroup& g, double h) const override {
    CableState& s = state_of(g);
    const double dt = s.cells.description().dt;
    const double ratio = h / dt;
    if (std::fabs(ratio - std::round(ratio)) > 1e-9 * ratio || ratio < 0.5)
      throw bad_value("dt", dt, "a divisor of the resolution " + std::to_string(h) + " ms");
    s.substeps = int(std::lround(ratio));
  }
  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    CableState& s = state_of(g);
    const double dt = s.cells.description().dt;
    const uint32_t n = uint32_t(g.size());
    if (s.substeps > ctx.step_tics)  // a dt below one tic: no time of the network's grid lies within it
      throw bad_value("dt", dt,
                      "at least one tic (" + std::to_string(ctx.h / double(ctx.step_tics)) + " ms): the resolution " +
                          std::to_string(ctx.h) + " ms in at most " + std::to_string(ctx.step_tics) + " steps");
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      s.due.swap(s.arriving);  // those of the last step's end act first
      for (CableState::Event& e : s.due) e.substep = 0;
      s.arriving.clear();
      for (const InputEvent& e : ctx.events(lag)) {
        const uint32_t column = e.column - g.first_input;
        if (column >= n * g.ports) continue;
        // the sub-step that holds the event: its tics from the step's start over a sub-step's,
        // rounded down (substeps: at the step's end, the next step's first)
        const uint64_t from_start = uint64_t(ctx.step_tics) - offset_in_tics(e.offset, ctx.tics_per_ms, ctx.step_tics);
        const uint32_t k = uint32_t(from_start * uint64_t(s.substeps) / uint64_t(ctx.step_tics));
        (k < uint32_t(s.substeps) ? s.due : s.arriving).push_back({k, column % n, column / n, e.weight});
      }
      std::stable_sort(s.due.begin(), s.due.end(), [](const auto& a, const auto& b) { return a.substep < b.substep; });
      const double t0 = double(ctx.origin + lag) * ctx.h;
      s.crossings.clear();
      auto next = s.due.begin();
      for (int k = 0; k < s.substeps; ++k) {
        for (; next != s.due.end() && next->substep == uint32_t(k); ++next)
          s.cells.add_event(next->cell, next->port, next->weight, t0 + k * dt);
        s.cells.step(t0 + k * dt, s.crossings);
      }
      const double step_end = double(ctx.origin + lag + 1) * ctx.h;
      for (const auto& [cell, time] : s.crossings) ctx.spike(g, cell, lag, std::clamp(step_end - time, 0.0, ctx.h));
      for (size_t i = 0; i < g.size(); ++i) {
        g.vars[V_m][i] = s.cells.voltage(i, s.detector_cv);
        if (!std::isfinite(g.vars[V_m][i]))  // as point neurons diverge: the run stops, named
          ctx.fail(std::make_exception_ptr(
              NumericalInstabilityError("numerical instability while updating cable_cell " + std::to_string(g.gids[i]) +
                                        ": V_m = " + std::to_string(g.vars[V_m][i]) + " mV in the step ending at t = " +
                                        std::to_string(step_end) + " ms (an extreme Ra, dt or conductance?)")));
      }
      ctx.after_step(g, lag);
    }
  }
};

RANVIER_REGISTER_NEURON_MODEL(CableCell);

}  // namespace
}  // namespace ranvier
