// What NEST's precise-timing integrate-and-fire models share (Morrison et al. 2007; Hanuschkin
// et al. 2010): input spikes act at their offsets within the step, the membrane is integrated
// exactly from one event to the next, and a spike leaves at the time its threshold was
// crossed, as an offset before the end of its step. Refractoriness ends t_ref (in whole steps)
// after the spike, at the spike's own offset, as a pseudo-event among the inputs.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::precise {

// What a precise cell keeps beyond its named variables.
struct State final : CellState {
  std::vector<double> U;             // V_m - E_L: integrated in relative terms, as NEST does
  std::vector<uint8_t> refractory;   // since the last spike, until its end arrives
  std::vector<int64_t> spike_stamp;  // the last spike: in the step ending at stamp ...
  std::vector<double> spike_offset;  // ... this many ms before its end
  std::vector<double> held;          // input held while refractory (refractory_input)
  void resize(size_t n) {
    U.resize(n, 0.0);
    refractory.resize(n, 0);
    spike_stamp.resize(n, 0);
    spike_offset.resize(n, 0.0);
    held.resize(n, 0.0);
  }
  bool save(size_t i, std::vector<double>& out) const override {
    out.insert(out.end(), {U[i], double(refractory[i]), double(spike_stamp[i]), spike_offset[i], held[i]});
    return true;
  }
  void load(size_t i, const double* v, const double*) override {
    U[i] = v[0], refractory[i] = uint8_t(v[1]), spike_stamp[i] = int64_t(v[2]), spike_offset[i] = v[3], held[i] = v[4];
  }
};

// Where a model keeps the named variables the shared code reads and writes.
struct Indices {
  int V_m, E_L, t_ref, I_stim, is_refractory;
};

inline State& state(NeuronGroup& g) { return static_cast<State&>(*g.state); }
inline const State& state(const NeuronGroup& g) { return static_cast<const State&>(*g.state); }

// The state from the named V_m, E_L and is_refractory (before the first run, and after a
// user's change); the named ones show it after every step.
inline void after_user_set(NeuronGroup& g, size_t i, const Indices& v) {
  if (!g.state) return;
  state(g).U[i] = g.vars[size_t(v.V_m)][i] - g.vars[size_t(v.E_L)][i];
  state(g).refractory[i] = g.vars[size_t(v.is_refractory)][i] != 0.0;
}
inline void attach_state(NeuronGroup& g, const Indices& v) {
  if (g.state) return;
  auto s = std::make_unique<State>();
  s->resize(g.size());
  g.state = std::move(s);
  for (size_t i = 0; i < g.size(); ++i) after_user_set(g, i, v);
}

// A refractory period of whole steps (UpdateContext::steps: NEST rounds t_ref to a tic, then up
// to the grid), at least one: at least one tic (of NEST's default 1 us; 0.04 ms passes).
inline void check_refractory(double t_ref, bool may_be_zero) {
  if (may_be_zero ? !(t_ref >= 0) : !(std::llround(t_ref * double(default_tics_per_ms)) >= 1))
    throw bad_value(
        "t_ref", t_ref,
        may_be_zero ? ">= 0" : "at least one tic (0.001 ms) (NEST: Refractory time must be at least one time step.)");
}

// An input of the step at one cell, or the end of its refractoriness (weight 0).
struct Arrival {
  uint32_t cell;
  double offset;  // ms before the step's end
  double weight;
  bool end_of_refractoriness;
};

// The step's arrivals at the group's cells, cell by cell and earliest first; the end of a
// refractory period comes before spikes at the same time (NEST's order).
inline void gather(NeuronGroup& g, const UpdateContext& ctx, int lag, const std::vector<double>& t_ref,
                   std::vector<Arrival>& out) {
  out.clear();
  const uint32_t n = uint32_t(g.size());
  for (const InputEvent& e : ctx.events(lag))
    if (e.column - g.first_input < n) out.push_back({e.column - g.first_input, e.offset, e.weight, false});
  State& s = state(g);
  const int64_t stamp = ctx.origin + lag + 1;
  for (uint32_t i = 0; i < n; ++i)
    if (s.refractory[i] && s.spike_stamp[i] + ctx.steps(t_ref[i]) == stamp)
      out.push_back({i, s.spike_offset[i], 0.0, true});
  std::stable_sort(out.begin(), out.end(), [](const Arrival& a, const Arrival& b) {
    if (a.cell != b.cell) return a.cell < b.cell;
    if (a.offset != b.offset) return a.offset > b.offset;
    return a.end_of_refractoriness && !b.end_of_refractoriness;
  });
}

// Cell i spikes `offset` ms before the end of step `lag`: it resets to U_reset and is refractory.
inline void spike(NeuronGroup& g, UpdateContext& ctx, size_t i, int lag, double offset, double U_reset) {
  State& s = state(g);
  s.spike_stamp[i] = ctx.origin + lag + 1;
  s.spike_offset[i] = offset;
  s.U[i] = U_reset;
  s.refractory[i] = 1;
  ctx.spike(g, i, lag, offset);
}

// The time in [0, dt] at which distance(t) = U(t) - U_th crosses zero, by the Illinois variant
// of regula falsi, to |distance| < 1e-14 mV (NEST's method and criterion). Reports NEST's
// NumericalInstability where the interval holds no crossing.
template <class Distance>
double crossing_time(const Distance& distance, double dt, UpdateContext& ctx, int lag) {
  double a = 0.0, b = dt, fa = distance(a), fb = distance(b);
  const auto fail = [&](const char* why) {
    std::ostringstream msg;
    msg << "regula falsi: " << why << ", in the step ending at t = " << double(ctx.origin + lag + 1) * ctx.h << " ms";
    ctx.fail(std::make_exception_ptr(NumericalInstabilityError(msg.str())));
    return dt;
  };
  if (fa * fb > 0) return fail("time step too short to reach threshold");
  int side = 0;
  for (int iteration = 0; iteration < 500; ++iteration) {
    const double root = (a * fb - b * fa) / (fb - fa), f = distance(root);
    if (std::abs(f) < 1e-14) return root;
    if (fa * f > 0.0) {
      a = root, fa = f;
      if (side == 1) fb /= 2;
      side = 1;
    } else if (fb * f > 0.0) {
      b = root, fb = f;
      if (side == -1) fa /= 2;
      side = -1;
    } else {
      return fail("no convergence");
    }
  }
  return fail("no convergence in 500 iterations");
}

// The end of a step: the current that acts from the next step on (it enters at the cell's
// port), V_m shown in absolute terms, and multimeters' samples.
inline void finish_step(NeuronGroup& g, UpdateContext& ctx, int lag, const Indices& v) {
  const State& s = state(g);
  double* current = ctx.row(lag).current + g.first_input;
  for (size_t i = 0; i < g.size(); ++i) {
    g.vars[size_t(v.I_stim)][i] = current[i];
    current[i] = 0.0;
    g.vars[size_t(v.V_m)][i] = s.U[i] + g.vars[size_t(v.E_L)][i];
    g.vars[size_t(v.is_refractory)][i] = s.refractory[i];
  }
  ctx.after_step(g, lag);
}

// Spikes of cells set above threshold before the run: at the start of its first step.
inline double first_instant(double h) { return h * (1.0 - std::numeric_limits<double>::epsilon()); }

// The update of the current-based models (iaf_psc_exp_ps, iaf_psc_exp_ps_lossless,
// iaf_psc_alpha_ps). A step without input goes at once with the group's propagators;
// otherwise the cell moves from one arrival to the next, an input acting after the threshold
// check of the ministep it ends. Cell loads one cell (Cell(g, i), store), moves it
// (full_step over h, propagate over dt, add a weight) and finds where it crossed the threshold since
// a state `before` (crossing: the time after it, or NaN).
template <class Cell>
void update_current_based(NeuronGroup& g, UpdateContext& ctx, const Indices& v) {
  State& s = state(g);
  static thread_local std::vector<Arrival> arrivals;
  const double h = ctx.h;
  for (size_t i = 0; i < g.size(); ++i) {
    const Cell c(g, i);
    if (c.U >= c.U_th) spike(g, ctx, i, ctx.from, first_instant(h), c.U_reset);
  }
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    gather(g, ctx, lag, g.vars[size_t(v.t_ref)], arrivals);
    auto next = arrivals.begin();
    for (size_t i = 0; i < g.size(); ++i) {
      Cell c(g, i);
      const auto fire = [&](const Cell& before, double t0, double dt) {
        const double t = c.crossing(before, dt, ctx, lag);
        if (std::isnan(t)) return;
        spike(g, ctx, i, lag, h - (t0 + t), c.U_reset);
        c.U = c.U_reset;
      };
      if (next == arrivals.end() || next->cell != i) {
        c.full_step(s.refractory[i] != 0, h);
        // the state before the step is still the group's: loaded only when the threshold is
        // reached (a copy of every cell's state at every step cost most of the update)
        if (c.may_have_crossed()) fire(Cell(g, i), 0.0, h);
      } else {
        Cell before = c;
        double last = h;  // the ministep's start, as an offset
        for (; next != arrivals.end() && next->cell == i; ++next) {
          const double ministep = last - next->offset;
          if (ministep > 0) {
            c.propagate(ministep, s.refractory[i] != 0);
            fire(before, h - last, ministep);
          }
          if (next->end_of_refractoriness)
            s.refractory[i] = 0;
          else
            c.add(next->weight);
          before = c;
          last = next->offset;
        }
        if (last > 0) {
          c.propagate(last, s.refractory[i] != 0);
          fire(before, h - last, last);
        }
      }
      c.store(g, i);
    }
    finish_step(g, ctx, lag, v);
  }
}

}  // namespace ranvier::precise
