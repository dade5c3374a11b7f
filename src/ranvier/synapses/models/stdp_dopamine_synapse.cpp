// stdp_dopamine_synapse: dopamine-modulated STDP (Izhikevich 2007; Potjans et al. 2010), as
// NEST 3.10 has it. Pairs of pre and post spikes build an eligibility trace c (up by A_plus
// K+ at each post spike, down by A_minus K- at each pre spike, decaying by tau_c); the
// dopamine trace n steps by 1 / tau_n at each spike of the volume transmitter's sources and
// decays by tau_n; the weight follows dw/dt = c (n - b), integrated exactly between events
// and kept within [Wmin, Wmax]. A connection catches up at each pre spike and whenever its
// volume transmitter delivers (synapses/neuromodulation.hpp), in NEST's order of operations
// and with NEST's arithmetic on times in ms, so weights agree with NEST's to rounding.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

enum Parameter { kWeight, kDelay, kAPlus, kAMinus, kTauPlus, kTauC, kTauN, kB, kWmin, kWmax, kTransmitter };
// The record: per-connection parameters, then the position in the transmitter's list, the
// step of the last update and the end of the last window of post spikes counted as read.
enum Slot { k_plus, k_c, k_n, k_index, k_last_update, k_read_until };

// exp or expm1 remembering its last argument and value. A delivery brings most connections
// over the same intervals (from the last delivery, between the same dopamine spikes), so most
// calls repeat their argument bit for bit and get the function's own value without the work.
class Recalled {
 public:
  explicit Recalled(double (*f)(double)) : f_(f) {}
  double operator()(double x) {
    if (std::bit_cast<uint64_t>(x) != x_) x_ = std::bit_cast<uint64_t>(x), y_ = f_(x);
    return y_;
  }

 private:
  double (*f_)(double);
  uint64_t x_ = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
  double y_ = std::numeric_limits<double>::quiet_NaN();
};
double exp_of(double x) { return std::exp(x); }
double expm1_of(double x) { return std::expm1(x); }

// The two expm1 of a weight update over one kind of interval.
struct Interval {
  Recalled rise{expm1_of}, fall{expm1_of};
};

// The model's parameters and a delivery's transmitter spikes, with one Recalled per place
// that calls exp or expm1 (each place sees its own run of arguments).
struct Dopamine {
  double a_plus, a_minus, tau_plus, tau_c, tau_n, b, w_min, w_max, taus;
  const ModulatorSpikes& spikes;
  Interval quiet, to_first, between, after_last;  // no dopamine spike; up to the first, ...
  Recalled n_to_t0{exp_of}, c_to_spike{exp_of}, c_to_last{exp_of}, c_decay{exp_of}, n_decay{exp_of},
      k_plus_to_post{exp_of}, k_plus_decay{exp_of}, n_to_now{exp_of};

  Dopamine(const SynapseModel& m, const ModulatorSpikes& spikes)
      : a_plus(m.value(kAPlus)),
        a_minus(m.value(kAMinus)),
        tau_plus(m.value(kTauPlus)),
        tau_c(m.value(kTauC)),
        tau_n(m.value(kTauN)),
        b(m.value(kB)),
        w_min(m.value(kWmin)),
        w_max(m.value(kWmax)),
        taus((tau_c + tau_n) / (tau_c * tau_n)),
        spikes(spikes) {}

  // The weight over dt = -minus_dt ms from eligibility c0 and dopamine n0 at its start.
  void update_weight(Interval& e, double& w, double c0, double n0, double minus_dt) {
    w -= c0 * (n0 / taus * e.rise(taus * minus_dt) - b * tau_c * e.fall(minus_dt / tau_c));
    w = std::clamp(w, w_min, w_max);
  }
  // Dopamine n steps to the next spike of the list.
  void next_dopamine(double* r) {
    const size_t i = size_t(r[k_index]);
    r[k_index] = double(i + 1);
    r[k_n] = r[k_n] * n_decay((spikes[i].t - spikes[i + 1].t) / tau_n) + spikes[i + 1].multiplicity / tau_n;
  }
  bool dopamine_by(const double* r, int64_t step) const {
    const size_t i = size_t(r[k_index]);
    return spikes.size() > i + 1 && spikes[i + 1].stamp <= step;
  }
  // The weight, eligibility and dopamine from t0 to t1 (ms; t1 at step `step1`), through the
  // dopamine spikes between them.
  void advance(double& w, double* r, double t0, double t1, int64_t step1) {
    if (size_t(r[k_index]) >= spikes.size()) r[k_index] = 0.0;  // the transmitter changed: its list is new
    if (dopamine_by(r, step1)) {
      update_weight(to_first, w, r[k_c], r[k_n] * n_to_t0((at(r).t - t0) / tau_n), t0 - next(r).t);
      next_dopamine(r);
      while (dopamine_by(r, step1)) {
        update_weight(between, w, r[k_c] * c_to_spike((t0 - at(r).t) / tau_c), r[k_n], at(r).t - next(r).t);
        next_dopamine(r);
      }
      update_weight(after_last, w, r[k_c] * c_to_last((t0 - at(r).t) / tau_c), r[k_n], at(r).t - t1);
    } else {
      update_weight(quiet, w, r[k_c], r[k_n] * n_to_t0((at(r).t - t0) / tau_n), t0 - t1);
    }
    r[k_c] *= c_decay((t0 - t1) / tau_c);
  }
  // Catches up over the post spikes (t_last_update - d, t_end - d] seen through the delay d,
  // each raising eligibility by A_plus K+ decayed to it, then up to t_end; returns t_end in ms.
  double catch_up(double& w, double* r, SpikeArchives& post, uint32_t target, int64_t d, int64_t t_end,
                  const NestTime& time) {
    const int64_t last = int64_t(r[k_last_update]);
    const double last_ms = time(last), d_ms = time.delay(d), end_ms = time(t_end);
    double t0 = last_ms;
    post.visit_window(target, last - d, t_end - d, int64_t(r[k_read_until]), [&](int64_t t_post, uint32_t offset) {
      const double t1 = time(t_post) - post.early_ms(offset) + d_ms;
      advance(w, r, t0, t1, t_post + d);
      t0 = t1;
      r[k_c] += a_plus * r[k_plus] * k_plus_to_post((last_ms - t0) / tau_plus);
    });
    r[k_read_until] = std::max(r[k_read_until], double(t_end - d));
    advance(w, r, t0, end_ms, t_end);
    return end_ms;
  }

 private:
  const ModulatorSpike& at(const double* r) const { return spikes[size_t(r[k_index])]; }
  const ModulatorSpike& next(const double* r) const { return spikes[size_t(r[k_index]) + 1]; }
};

uint32_t transmitter(const SynapseModel& m) { return uint32_t(m.value(kTransmitter)); }

// A pre spike: the connection catches up to it, eligibility falls by A_minus K- at it, the
// weight is transmitted, and K+ decays to it and steps by 1.
template <bool Record>
void deliver(const SynapseEvent& e) {
  Dopamine rule(e.model, e.ts.modulators.of(transmitter(e.model)));
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = e.table.records().stride();
  SpikeArchives& post = e.ts.archives;
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const uint32_t j = target[k];
      double* r = record + k * rs;
      const int64_t d = delay[k * ds];
      const double last_ms = e.time(int64_t(r[k_last_update]));
      double w = weight[k];
      const double t_spike = rule.catch_up(w, r, post, j, d, e.stamp, e.time);
      r[k_c] -= rule.a_minus * post.k_minus_at(j, e.stamp - d);
      weight[k] = w;
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, uint32_t(d)), j, w, e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, j, w);
      r[k_plus] = r[k_plus] * rule.k_plus_decay((last_ms - t_spike) / rule.tau_plus) + 1.0;
      r[k_last_update] = double(e.stamp);
    }
  });
}

// The volume transmitter delivers: every connection catches up to now, its traces decay to
// now, and it reads the transmitter's next list from its start.
void modulate(const ModulationEvent& m) {
  Dopamine rule(m.model, m.spikes);
  ConnectionTable& table = m.table;
  const size_t rs = table.records().stride();
  for (size_t i = 0; i < table.sources().size(); ++i) {
    const SourceRange run = table.range_at(i);
    double* weight = table.weights().run(i, run.begin);
    double* record = table.records().run(i, run.begin);
    for (size_t k = 0; k < run.end - run.begin; ++k) {
      double* r = record + k * rs;
      const double last_ms = m.time(int64_t(r[k_last_update]));
      const double now = rule.catch_up(weight[k], r, m.ts.archives, table.targets()[run.begin + k],
                                       table.delays().at(i, run.begin + k), m.stamp, m.time);
      r[k_n] *= rule.n_to_now((m.spikes[size_t(r[k_index])].t - now) / rule.tau_n);
      r[k_plus] *= rule.k_plus_decay((last_ms - now) / rule.tau_plus);
      r[k_last_update] = double(m.stamp);
      r[k_index] = 0.0;
    }
  }
}

// NEST: connections need the volume transmitter first.
void check_model(const SynapseModel& m) {
  if (transmitter(m) == 0)
    throw BadParameterError("No volume transmitter has been assigned to the dopamine synapse " + m.name +
                            " (SetDefaults or CopyModel with volume_transmitter)");
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"A_plus", 1.0, "", true},
                                       {"A_minus", 1.5, "", true},
                                       {"tau_plus", 20.0, "ms", true, is_positive, "> 0"},
                                       {"tau_c", 1000.0, "ms", true, is_positive, "> 0"},
                                       {"tau_n", 200.0, "ms", true, is_positive, "> 0"},
                                       {"b", 0.0, "", true},
                                       {"Wmin", 0.0, weight_unit, true},
                                       {"Wmax", 200.0, weight_unit, true},
                                       {"volume_transmitter", 0.0, "", true, is_node_id, "a node id"},
                                       {"Kplus", 0.0, "", false, is_non_negative, ">= 0"},
                                       {"c", 0.0, ""},
                                       {"n", 0.0, ""}},
                        .deliver = {deliver<false>, deliver<true>},
                        .plastic = true,
                        .own_records = true,
                        .state = {0.0, 0.0, 0.0},
                        .post_trace_tau = "tau_minus",
                        .check_model = check_model,
                        .modulator = "volume_transmitter",
                        .modulate = modulate};
[[maybe_unused]] const bool registered = register_synapse("stdp_dopamine_synapse", &model);

}  // namespace
}  // namespace ranvier
