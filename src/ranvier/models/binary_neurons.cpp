// NEST's binary neurons (ginzburg_neuron, mcculloch_pitts_neuron, erfc_neuron): a state S of
// 0 or 1 and an input h, the weights of the sources that are in state 1. At update times that
// follow each other after exponential intervals of mean tau_m, the neuron takes state 1 with
// probability gain(h + current) and 0 otherwise. It tells its targets of a change as NEST
// does: two spikes in one step for a change to 1, one for a change to 0. A target reads two
// events of one sender in one step as +w, one as -w (so events carry their sender). Binary
// neurons connect only to binary neurons (and to devices), as in NEST.
//
// Draws come from the neuron's stream by step: its gain's at 2 step, its next interval's at
// 2 step + 1 (its first interval's from a stream of its own), so they depend on no partition.
#include <cassert>
#include <cmath>

#include "core/rng.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

enum Var { tau_m, h, S, tau_minus, tau_minus_triplet, first_gain_parameter };

// A neuron's update times and what it last received, kept beyond its named variables.
struct BinaryState final : CellState {
  std::vector<int64_t> next_update;  // tics; -1: not drawn yet (NEST draws the first at Simulate)
  std::vector<uint32_t> last_sender;
  std::vector<int64_t> last_step;  // the step the last sender's event arrived in
  explicit BinaryState(size_t n) : next_update(n, -1), last_sender(n, 0), last_step(n, -1) {}
  bool save(size_t i, std::vector<double>& out) const override {
    out.insert(out.end(), {double(next_update[i]), double(last_sender[i]), double(last_step[i])});
    return true;
  }
  void load(size_t i, const double* begin, const double*) override {
    next_update[i] = int64_t(begin[0]), last_sender[i] = uint32_t(begin[1]), last_step[i] = int64_t(begin[2]);
  }
};

// The gain functions: their parameters (after the common variables) and whether state 1 is
// taken for input x, given a uniform draw u.
struct Ginzburg {  // c_1 x + c_2 (1 + tanh(c_3 (x - theta))) / 2
  static constexpr const char* name = "ginzburg_neuron";
  static constexpr bool draws = true;
  static constexpr size_t count = 4;  // parameters
  static std::vector<Variable> parameters() {
    return {{"theta", 0.0, "mV"}, {"c_1", 0.0, "1/mV"}, {"c_2", 1.0, ""}, {"c_3", 1.0, "1/mV"}};
  }
  static bool up(const double* p, double x, double u) {
    return u < p[1] * x + p[2] * 0.5 * (1.0 + std::tanh(p[3] * (x - p[0])));
  }
};
struct McCullochPitts {  // x > theta
  static constexpr const char* name = "mcculloch_pitts_neuron";
  static constexpr bool draws = false;
  static constexpr size_t count = 1;
  static std::vector<Variable> parameters() { return {{"theta", 0.0, "mV"}}; }
  static bool up(const double* p, double x, double) { return x > p[0]; }
};
struct Erfc {  // erfc(-(x - theta) / (sqrt(2) sigma)) / 2
  static constexpr const char* name = "erfc_neuron";
  static constexpr bool draws = true;
  static constexpr size_t count = 2;
  static std::vector<Variable> parameters() { return {{"theta", 0.0, "mV"}, {"sigma", 1.0, "mV"}}; }
  static bool up(const double* p, double x, double u) {
    return u < 0.5 * std::erfc(-(x - p[0]) / (std::sqrt(2.) * p[1]));
  }
};

template <class Gain>
class BinaryNeuron final : public NeuronModel {
 public:
  const char* name() const override { return Gain::name; }
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{"S", "h"}; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars = [] {
      std::vector<Variable> v = {{"tau_m", 10.0, "ms"},
                                 {"h", 0.0, "mV"},
                                 {"S", 0.0, "", true},
                                 {"tau_minus", 20.0, "ms"},
                                 {"tau_minus_triplet", 110.0, "ms"}};
      for (const Variable& p : Gain::parameters()) v.push_back(p);
      assert(v.size() == first_gain_parameter + Gain::count);
      return v;
    }();
    return vars;
  }
  void validate(NeuronGroup& g, size_t i) const override {
    if (!(g.vars[tau_m][i] > 0)) throw bad_value("tau_m", g.vars[tau_m][i], "> 0");
    validate_traces(g, i);
  }
  bool binary() const override { return true; }
  bool takes_events() const override { return true; }  // the sender of each
  bool takes_currents() const override { return true; }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<BinaryState>(g.size());
  }
  void calibrate(NeuronGroup& g, double) const override { g.internals.assign(1, std::vector<double>(g.size(), 0.0)); }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    BinaryState& s = static_cast<BinaryState&>(*g.state);
    std::vector<double>& arrived = g.internals[0];  // the step's change of h, per neuron
    const int64_t tics_per_step = ctx.step_tics;
    auto interval = [&](const Stream& stream, uint64_t index, size_t i) {  // Time::ms(exponential x tau_m) in tics
      const double ms = -std::log1p(-stream.uniform(index)) * g.vars[tau_m][i];
      return int64_t(std::floor(ms * double(ctx.tics_per_ms) + 0.5));
    };
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const int64_t step = ctx.origin + lag;
      for (const InputEvent& e : ctx.events(lag)) {
        const uint32_t i = e.column - g.first_input;
        if (i >= g.size()) continue;
        const bool second = e.sender == s.last_sender[i] && step == s.last_step[i];  // a change to 1
        arrived[i] += second ? 2.0 * e.weight : -e.weight;
        s.last_sender[i] = e.sender, s.last_step[i] = step;
      }
      const InputRow in = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        g.vars[h][i] += arrived[i];
        arrived[i] = 0.0;
        const uint32_t column = g.first_input + uint32_t(i);
        const double current = in.current[column];
        in.current[column] = 0.0;
        const Stream draws(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 0);
        if (s.next_update[i] < 0)
          s.next_update[i] = interval(Stream(ctx.seed, Purpose::neuron_intrinsic, g.gids[i], 1), 0, i);
        if (!(step * tics_per_step > s.next_update[i])) continue;
        const double u = Gain::draws ? draws.uniform(2 * uint64_t(step)) : 0.0;
        double p[Gain::count];
        for (size_t k = 0; k < Gain::count; ++k) p[k] = g.vars[first_gain_parameter + k][i];
        const bool up = Gain::up(p, g.vars[h][i] + current, u);
        if (up != (g.vars[S][i] != 0.0)) {
          ctx.spike(g, i, lag);
          if (up) ctx.spike(g, i, lag);
          g.vars[S][i] = up ? 1.0 : 0.0;
        }
        s.next_update[i] += interval(draws, 2 * uint64_t(step) + 1, i);
      }
      ctx.after_step(g, lag);
    }
  }
};

}  // namespace

using GinzburgNeuron = BinaryNeuron<Ginzburg>;
using McCullochPittsNeuron = BinaryNeuron<McCullochPitts>;
using ErfcNeuron = BinaryNeuron<Erfc>;
RANVIER_REGISTER_NEURON_MODEL(GinzburgNeuron);
RANVIER_REGISTER_NEURON_MODEL(McCullochPittsNeuron);
RANVIER_REGISTER_NEURON_MODEL(ErfcNeuron);

}  // namespace ranvier
