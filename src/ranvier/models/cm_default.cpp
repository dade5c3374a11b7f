// NEST's compartmental model cm_default: a tree of compartments (models/cm_tree.hpp) advanced
// by NEST's Crank-Nicolson step. Each step, every compartment's channels and receptors are
// linearised around its voltage (NEST's f_numstep: half their conductance on the diagonal, the
// rest on the right-hand side), the tree's system is solved by Hines's elimination in the order
// NEST eliminates (leaf by leaf, each parent once all its children are in), and the cell spikes
// when the root crosses V_th upwards. The arithmetic is NEST's, operation for operation, so that
// traces match NEST's to the last bit. Spikes arrive at receptor_type r (receptor r), currents
// at receptor_type c (compartment c).
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "models/cm_tree.hpp"

namespace ranvier {
namespace {

// The Na and K channels' gates (NEST's cm_compartmentcurrents, Branco 2010's na.mod and kv.mod):
// (steady state, time constant in ms) at voltage v.
constexpr double q10 = 1.0 / 3.21;
std::pair<double, double> m_Na(double v) {
  const double x = v + 35.013;
  double alpha, inv_sum;
  if (std::abs(x) > 1e-5) {
    const double e = std::exp(0.111111111111111 * x);
    const double f = 1. / (e - 1.);
    alpha = 0.182 * x * e * f;
    const double beta = 0.124 * x * f;
    inv_sum = 1. / (alpha + beta);
  } else {
    alpha = 1.638;
    inv_sum = 1. / (alpha + 1.116);
  }
  return {alpha * inv_sum, q10 * inv_sum};
}
std::pair<double, double> h_Na(double v) {
  const double x = v + 50.013, y = v + 75.013;
  const double alpha = std::abs(x) > 1e-5 ? 0.024 * x / (1.0 - std::exp(-0.2 * x)) : 0.12;
  const double beta = std::abs(y) > 1e-9 ? -0.0091 * y / (1.0 - std::exp(0.2 * y)) : 0.0455;
  return {1. / (1. + std::exp((v + 65.) / 6.2)), q10 / (alpha + beta)};
}
std::pair<double, double> n_K(double v) {
  const double x = v - 25.;
  double alpha, beta;
  if (std::abs(x) > 1e-5) {
    const double e = std::exp(0.111111111111111 * x);
    const double f = 1. / (e - 1.);
    alpha = 0.02 * x * e * f;
    beta = 0.002 * x * f;
  } else {
    alpha = 0.18, beta = 0.018;
  }
  const double inv_sum = 1. / (alpha + beta);
  return {alpha * inv_sum, q10 * inv_sum};
}
// NMDA's magnesium block and its derivative in v.
std::pair<double, double> nmda_block(double v) {
  const double e = std::exp(-.1 * v);
  const double denom = 1. + 0.3 * e;
  return {1. / denom, 0.03 * e / std::pow(denom, 2)};
}
// The factor that makes a double exponential's peak 1 (NEST's g_norm).
double peak_norm(double tau_r, double tau_d) {
  const double tp = (tau_r * tau_d) / (tau_d - tau_r) * std::log(tau_d / tau_r);
  return 1. / (-std::exp(-tp / tau_r) + std::exp(-tp / tau_d));
}

struct CmState final : CellState {
  std::shared_ptr<const CmKind> kind;
  size_t n_cells, n_comp = 0, n_rec = 0;
  // Per neuron: each compartment's v, m, h, n ([neuron][compartment][4]) and each receptor's
  // conductances g_r, g_d (AMPA_NMDA: then NMDA's) ([neuron][receptor][4]).
  std::vector<double> comp, rec;
  // Constants for the resolution (calibrate)
  struct Constants {
    double ca_dt, gl_2, gg0, gc_2, gl_el;
  };
  std::vector<Constants> constants;
  std::vector<double> prop, norm;  // per receptor and conductance: decay per step (rise, decay), peak factor
  std::vector<std::vector<uint32_t>> children;
  std::vector<uint32_t> elimination;            // the order NEST eliminates compartments in (the root last)
  std::vector<std::vector<uint32_t>> in_order;  // per compartment: its receptors in NEST's order (by type)
  std::vector<double> gg, ff, xx, yy;           // one neuron's system, scratch

  CmState(std::shared_ptr<const CmKind> k, size_t n) : kind(std::move(k)), n_cells(n) {
    n_comp = kind->compartments.size(), n_rec = kind->receptors.size();
    comp.resize(n * n_comp * 4);
    rec.assign(n * n_rec * 4, 0.0);
    for (size_t i = 0; i < n; ++i)
      for (size_t c = 0; c < n_comp; ++c) {
        const double v = kind->compartments[c].v_comp;
        double* s = &comp[(i * n_comp + c) * 4];
        s[0] = v, s[1] = m_Na(v).first, s[2] = h_Na(v).first, s[3] = n_K(v).first;
      }
    children.resize(n_comp);
    for (size_t c = 1; c < n_comp; ++c) children[size_t(kind->compartments[c].parent)].push_back(uint32_t(c));
    in_order.resize(n_comp);
    for (int type = 0; type < 4; ++type)
      for (size_t r = 0; r < n_rec; ++r)
        if (int(kind->receptors[r].type) == type) in_order[kind->receptors[r].compartment].push_back(uint32_t(r));
    // NEST's down sweep: from each leaf in index order up to the first parent that still waits
    // for a child
    std::vector<size_t> passed(n_comp, 0);
    for (size_t leaf = 0; leaf < n_comp; ++leaf) {
      if (!children[leaf].empty()) continue;
      for (size_t c = leaf;;) {
        elimination.push_back(uint32_t(c));
        if (c == 0) break;
        const size_t p = size_t(kind->compartments[c].parent);
        if (++passed[p] < children[p].size()) break;
        c = p;
      }
    }
    gg.resize(n_comp), ff.resize(n_comp), xx.resize(n_comp), yy.resize(n_comp);
  }
  // The state of the compartments and receptors that `old` has too (a tree grows only).
  void keep(CmState& old) {
    for (size_t i = 0; i < n_cells; ++i) {
      std::copy_n(old.compartment(i, 0), old.n_comp * 4, compartment(i, 0));
      std::copy_n(old.receptor(i, 0), old.n_rec * 4, receptor(i, 0));
    }
  }
  double* compartment(size_t i, size_t c) { return comp.data() + (i * n_comp + c) * 4; }
  double* receptor(size_t i, size_t r) { return rec.data() + (i * n_rec + r) * 4; }

  // Neuron i's state, each compartment's then each receptor's.
  bool save(size_t i, std::vector<double>& out) const override {
    out.insert(out.end(), comp.begin() + long(i * n_comp * 4), comp.begin() + long((i + 1) * n_comp * 4));
    out.insert(out.end(), rec.begin() + long(i * n_rec * 4), rec.begin() + long((i + 1) * n_rec * 4));
    return true;
  }
  void load(size_t i, const double* from, const double* end) override {
    if (size_t(end - from) != (n_comp + n_rec) * 4)
      throw BadParameterError("a checkpoint of cm_default holds another tree than the cells it is loaded into");
    std::copy(from, from + n_comp * 4, comp.begin() + long(i * n_comp * 4));
    std::copy(from + n_comp * 4, end, rec.begin() + long(i * n_rec * 4));
  }
};

CmState& state_of(const NeuronGroup& g) { return static_cast<CmState&>(*g.state); }

class CmDefault final : public NeuronModel {
 public:
  enum : int { V_th, tau_minus, tau_minus_triplet };
  const char* name() const override { return "cm_default"; }
  const std::vector<Variable>& own_variables() const override {
    static const std::vector<Variable> vars{
        {"V_th", -55.0, "mV"}, {"tau_minus", 20.0, "ms"}, {"tau_minus_triplet", 110.0, "ms"}};
    return vars;
  }
  // The recordables are the tree's (CmKind::recordables), per Create call.
  std::optional<std::vector<std::string>> recordables() const override { return std::vector<std::string>{}; }
  int recordable(const CellKind* kind, const std::string& name) const override {
    const int code = static_cast<const CmKind*>(kind)->recordable(name);
    return code < 0 ? -1 : int(variables().size()) + code;
  }
  double probe_value(const NeuronGroup& g, const Probe& p, int variable) const override {
    const int code = variable - int(variables().size());
    if (code < 0) return g.vars[size_t(variable)][p.neuron];
    CmState& s = state_of(g);
    const size_t slot = size_t(code / 2);
    return code % 2 ? s.receptor(p.neuron, slot / 4)[slot % 4] : s.compartment(p.neuron, slot / 4)[slot % 4];
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t) const override {
    auto tree = std::dynamic_pointer_cast<const CmKind>(kind);
    if (!tree) throw BadParameterError("cm_default takes its compartments and receptors as NEST's dicts");
    g.ports = uint32_t(std::max(tree->compartments.size(), tree->receptors.size()));
    auto next = std::make_unique<CmState>(std::move(tree), g.size());
    if (g.state) next->keep(state_of(g));
    g.state = std::move(next);
  }
  std::shared_ptr<const CellKind> default_kind() const override { return std::make_shared<CmKind>(); }
  uint32_t port(const CellKind* kind, uint32_t receptor, bool current) const override {
    const auto& tree = *static_cast<const CmKind*>(kind);
    const size_t ports = current ? tree.compartments.size() : tree.receptors.size();
    if (receptor >= ports)
      throw BadParameterError("receptor_type: Port with id " + std::to_string(receptor) + " does not exist. Valid " +
                              (current ? "current" : "spike") + " receptor ports for cm_default are in [0, " +
                              std::to_string(ports) + "[");
    return receptor;
  }
  uint32_t cost(const CellKind* kind, double) const override {
    return uint32_t(std::max<size_t>(1, static_cast<const CmKind*>(kind)->compartments.size()));
  }
  void validate(NeuronGroup& g, size_t i) const override { validate_traces(g, i); }

  void calibrate(NeuronGroup& g, double h) const override {
    CmState& s = state_of(g);
    const CmKind& tree = *s.kind;
    if (tree.compartments.empty())
      throw KernelStateError("Compartment 0 does not exist in tree, meaning that no compartments have been added.");
    s.constants.clear();
    for (const CmCompartment& c : tree.compartments)
      s.constants.push_back({c.C_m / h, c.g_L / 2., c.C_m / h + c.g_L / 2., c.g_C / 2., c.g_L * c.e_L});
    s.prop.assign(s.n_rec * 4, 0.0), s.norm.assign(s.n_rec * 2, 0.0);
    for (size_t r = 0; r < s.n_rec; ++r) {
      const CmReceptor& rec = tree.receptors[r];
      for (int k = 0; k < rec.conductances(); ++k) {
        s.prop[4 * r + 2 * size_t(k)] = std::exp(-h / rec.tau_r[k]);
        s.prop[4 * r + 2 * size_t(k) + 1] = std::exp(-h / rec.tau_d[k]);
        s.norm[2 * r + size_t(k)] = peak_norm(rec.tau_r[k], rec.tau_d[k]);
      }
    }
  }

  void update(NeuronGroup& g, UpdateContext& ctx) const override {
    CmState& s = state_of(g);
    for (int lag = ctx.from; lag < ctx.to; ++lag) {
      const InputRow row = ctx.row(lag);
      for (size_t i = 0; i < g.size(); ++i) {
        const double v_prev = s.compartment(i, 0)[0];
        build(s, g, i, row, ctx);
        solve(s, i);
        if (s.compartment(i, 0)[0] >= g.vars[V_th][i] && v_prev < g.vars[V_th][i]) ctx.spike(g, i, lag);
      }
      ctx.after_step(g, lag);
    }
  }

 private:
  // Compartment c's row of neuron i's system (NEST's construct_matrix_element), its channels'
  // and receptors' gates and conductances advanced by the step; takes the step's input.
  static void build(CmState& s, NeuronGroup& g, size_t i, const InputRow& row, UpdateContext& ctx) {
    const CmKind& tree = *s.kind;
    const double h = ctx.h;
    for (size_t c = 0; c < s.n_comp; ++c) {
      const CmCompartment& cc = tree.compartments[c];
      const CmState::Constants& k = s.constants[c];
      double* st = s.compartment(i, c);
      const double v = st[0];
      double gg = k.gg0;
      if (cc.parent >= 0) gg += k.gc_2;
      for (uint32_t child : s.children[c]) gg += s.constants[child].gc_2;
      double ff = (k.ca_dt - k.gl_2) * v + k.gl_el;
      if (cc.parent >= 0) ff -= k.gc_2 * (v - s.compartment(i, size_t(cc.parent))[0]);
      for (uint32_t child : s.children[c]) ff -= s.constants[child].gc_2 * (v - s.compartment(i, child)[0]);
      double g_val = 0., i_val = 0.;
      if (cc.gbar_Na > 1e-9) {
        const auto [m_inf, tau_m] = m_Na(v);
        const auto [h_inf, tau_h] = h_Na(v);
        const double p_m = std::exp(-h / tau_m);
        st[1] *= p_m;
        st[1] += (1. - p_m) * m_inf;
        const double p_h = std::exp(-h / tau_h);
        st[2] *= p_h;
        st[2] += (1. - p_h) * h_inf;
        const double g_Na = cc.gbar_Na * std::pow(st[1], 3) * st[2];
        g_val += g_Na / 2.;
        i_val += g_Na * (cc.e_Na - v / 2.);
      }
      if (cc.gbar_K > 1e-9) {
        const auto [n_inf, tau_n] = n_K(v);
        const double p_n = std::exp(-h / tau_n);
        st[3] *= p_n;
        st[3] += (1. - p_n) * n_inf;
        const double g_K = cc.gbar_K * st[3];
        g_val += g_K / 2.;
        i_val += g_K * (cc.e_K - v / 2.);
      }
      for (uint32_t r : s.in_order[c]) {
        const auto [gr, ir] = receptor_step(s, g, i, r, v, row, ctx);
        g_val += gr;
        i_val += ir;
      }
      gg += g_val;
      ff += i_val;
      if (c < g.ports) {
        const uint32_t column = g.input(i, uint32_t(c));
        ff += row.current[column];
        row.current[column] = 0.0;
      }
      s.gg[c] = gg, s.ff[c] = ff, s.xx[c] = 0.0, s.yy[c] = 0.0;
    }
  }

  // Receptor r's conductances advanced by the step and its spikes taken, then its linearised
  // current: (half the conductance, current + that times v).
  static std::pair<double, double> receptor_step(CmState& s, NeuronGroup& g, size_t i, uint32_t r, double v,
                                                 const InputRow& row, UpdateContext& ctx) {
    const CmReceptor& rec = s.kind->receptors[r];
    const uint32_t column = g.input(i, r);
    const double spikes = row.excitatory[column] + row.inhibitory[column];
    row.excitatory[column] = row.inhibitory[column] = 0.0;
    if (spikes < 0)
      ctx.fail(std::make_exception_ptr(bad_value("weight", spikes, "positive for cm_default's receptors")));
    double* gs = s.receptor(i, r);
    double total[2];
    for (int k = 0; k < rec.conductances(); ++k) {
      double* gk = gs + 2 * k;
      gk[0] *= s.prop[4 * r + 2 * size_t(k)];
      gk[1] *= s.prop[4 * r + 2 * size_t(k) + 1];
      const double in = spikes * s.norm[2 * r + size_t(k)];
      gk[0] -= in;
      gk[1] += in;
      total[k] = gk[0] + gk[1];
    }
    double i_tot, di_dv;
    if (rec.type == CmReceptorType::AMPA || rec.type == CmReceptorType::GABA) {
      i_tot = total[0] * (rec.e_rev - v);
      di_dv = -total[0];
    } else if (rec.type == CmReceptorType::NMDA) {
      const auto [block, d_block] = nmda_block(v);
      i_tot = total[0] * block * (rec.e_rev - v);
      di_dv = total[0] * (d_block * (rec.e_rev - v) - block);
    } else {
      const auto [block, d_block] = nmda_block(v);
      i_tot = (total[0] + rec.NMDA_ratio * total[1] * block) * (rec.e_rev - v);
      di_dv = -total[0] + rec.NMDA_ratio * total[1] * (d_block * (rec.e_rev - v) - block);
    }
    const double g_half = -di_dv / 2.;
    return {g_half, i_tot + g_half * v};
  }

  // Hines's elimination in NEST's order and arithmetic (cm_tree's io, gather_input, calc_v).
  static void solve(CmState& s, size_t i) {
    const CmKind& tree = *s.kind;
    for (uint32_t c : s.elimination) {
      s.gg[c] -= s.xx[c];
      s.ff[c] -= s.yy[c];
      if (c == 0) break;
      const double hh = -s.constants[c].gc_2;
      const size_t p = size_t(tree.compartments[c].parent);
      s.xx[p] += hh * hh / s.gg[c];
      s.yy[p] += s.ff[c] * hh / s.gg[c];
    }
    for (size_t c = 0; c < s.n_comp; ++c) {  // parents before children
      const double v_parent = c == 0 ? 0.0 : s.compartment(i, size_t(tree.compartments[c].parent))[0];
      const double hh = c == 0 ? 0.0 : -s.constants[c].gc_2;
      s.compartment(i, c)[0] = (s.ff[c] - v_parent * hh) / s.gg[c];
    }
  }
};

RANVIER_REGISTER_NEURON_MODEL(CmDefault);

}  // namespace
}  // namespace ranvier
