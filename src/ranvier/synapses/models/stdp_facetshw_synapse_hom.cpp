// stdp_facetshw_synapse_hom: STDP as the FACETS wafer-scale hardware does it (Pfeil et al.
// 2012), as NEST 3.10 has it. Each pre spike adds to two per-connection accumulators: a_causal
// the decayed distance to the first post spike after the previous pre spike, a_acausal that
// to the last post spike before this one (both seen through the delay). The weight is a 4-bit
// number that changes only when the synapse's driver reads it out: at a pre spike after the
// connection's next readout time, two threshold tests of the accumulators pick one of three
// look-up tables (or none), may reset the accumulators, and the readout time moves on by
// whole readout cycles. Synapses are numbered in the order they first transmit, counted per
// thread as NEST's per-thread models count them, so with threads the readout phases depend on
// how connections fall into threads, as in NEST.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

enum Parameter { kWeight, kDelay, kTauPlus, kTauMinus, kWmax, kNoSynapses, kPerDriver, kReadoutTime };
// The record: per-connection parameters, then the step of the last pre spike.
enum Slot { a_causal, a_acausal, a_thresh_th, a_thresh_tl, init_flag, synapse_id, next_readout, last_spike };
enum List { kTable0, kTable1, kTable2, kConfig0, kConfig1, kReset };
constexpr size_t kEntries = 16;  // 4-bit weights

struct Hardware {
  const SynapseModel& m;
  double tau_plus = m.value(kTauPlus), tau_minus = m.value(kTauMinus);
  double weight_per_entry = m.value(kWmax) / double(kEntries - 1);
  double per_driver = m.value(kPerDriver), readout_time = m.value(kReadoutTime);

  // NEST's eval_function_: the two thresholds, each mixed with the accumulators its bits select.
  bool exceeds(const double* r, List config) const {
    const std::vector<double>& c = m.lists[config];
    return (r[a_thresh_tl] + c[2] * r[a_causal] + c[1] * r[a_acausal]) / (1 + c[2] + c[1]) >
           (r[a_thresh_th] + c[0] * r[a_causal] + c[3] * r[a_acausal]) / (1 + c[0] + c[3]);
  }
  // The readout of one connection: its weight after the look-up the evaluation selects. A weight
  // beyond Wmax reads the table's last entry (NEST would read past the table).
  double read_out(double w, double* r) const {
    size_t entry = std::min<size_t>(size_t(std::round(w / weight_per_entry)), kEntries - 1);
    const bool first = exceeds(r, kConfig0), second = exceeds(r, kConfig1);
    if (first || second) {
      const int pick = first && second ? 2 : first ? 0 : 1;
      entry = size_t(m.lists[kTable0 + pick][entry]);
      const std::vector<double>& reset = m.lists[kReset];
      if (reset[size_t(2 * pick)] != 0.0) r[a_causal] = 0.0;
      if (reset[size_t(2 * pick + 1)] != 0.0) r[a_acausal] = 0.0;
    }
    return double(entry) * weight_per_entry;
  }
  // NEST: a cycle reads every driver once, each serving synapses_per_driver synapses.
  double readout_cycle(double synapses) const {
    return double(int64_t((synapses - 1.0) / per_driver + 1.0)) * readout_time;
  }
};

// The synapses this thread's table has numbered (after a change of the table, counted again).
int64_t& numbered(ConnectionTable& table) {
  if (table.model_count() < 0) {
    const double* record = table.records().run(0, 0);
    const size_t rs = table.records().stride();
    int64_t n = 0;
    for (size_t k = 0; k < table.size(); ++k) n += record[k * rs + init_flag] != 0.0;
    table.model_count() = n;
  }
  return table.model_count();
}

template <bool Record>
void deliver(const SynapseEvent& e) {
  const Hardware hw{e.model};
  ConnectionTable& table = e.table;
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = table.records().stride();
  SpikeArchives& post = e.ts.archives;
  const double t_spike = e.time(e.stamp);
  const double first_id = e.model.value(kNoSynapses);
  // NEST numbers a connection when it first transmits and reads the readout cycle (which grows
  // with the count) right after, in the order the connections were made. A run that holds new
  // connections goes in its targets' order (that order, for one Connect call); others in the
  // table's (by delay), where the count stays.
  bool any_new = false;
  for (size_t k = 0; k < e.size(); ++k) any_new |= record[k * rs + init_flag] == 0.0;
  table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    const auto transmit = [&](size_t k) {
      double* r = record + k * rs;
      const uint32_t j = target[k];
      const int64_t d = delay[k * ds];
      if (r[init_flag] == 0.0) {
        r[synapse_id] = first_id + double(numbered(table)++);
        r[next_readout] = std::floor(r[synapse_id] / hw.per_driver) * hw.readout_time;
        r[init_flag] = 1.0;
      }
      double w = weight[k];
      if (t_spike > r[next_readout]) {
        w = hw.read_out(w, r);
        const double cycle = hw.readout_cycle(first_id + double(numbered(table)));
        while (t_spike > r[next_readout]) r[next_readout] += cycle;
      }
      // the first post spike since the last pre spike and the last before this one
      const int64_t last = int64_t(r[last_spike]);
      double first_post = 0.0, last_post = 0.0;
      bool any = false;
      post.visit_window(j, last - d, e.stamp - d, [&](int64_t t_post, uint32_t offset) {
        last_post = e.time(t_post) - post.early_ms(offset);
        if (!any) first_post = last_post, any = true;
      });
      if (any) {
        const double dendritic = e.time.delay(d);
        r[a_causal] += std::exp((e.time(last) - (first_post + dendritic)) / hw.tau_plus);
        r[a_acausal] += std::exp((last_post + dendritic - t_spike) / hw.tau_minus);
      }
      weight[k] = w;
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, uint32_t(d)), j, w, e.long_range, e.offset, e.source);
      if constexpr (Record) e.record(k, j, w);
      r[last_spike] = double(e.stamp);
    };
    if (!any_new) {
      for (size_t k = 0; k < e.size(); ++k) transmit(k);
      return;
    }
    std::vector<size_t> order(e.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return e.ts.input_gid[target[a]] < e.ts.input_gid[target[b]]; });
    for (const size_t k : order) transmit(k);
  });
}

bool is_entry(double v) { return v >= 0.0 && v < double(kEntries); }
bool is_bit(double v) { return v == 0.0 || v == 1.0; }
bool is_count(double v) { return v >= 0.0 && v == std::floor(v); }
bool is_positive_count(double v) { return v >= 1.0 && v == std::floor(v); }

// NEST's defaults: the tables of an intermediate Guetig rule (mu = 0.4) with 4-bit weights and
// 36 spike pairs (Pfeil et al. 2012), the configuration of Friedmann (2013), reset all.
const SynapseBase model{
    .parameters = {{"weight", 1.0, weight_unit},
                   {"delay", 1.0, "ms"},
                   {"tau_plus", 20.0, "ms", true, is_positive, "> 0"},
                   {"tau_minus_stdp", 20.0, "ms", true, is_positive, "> 0"},
                   {"Wmax", 100.0, weight_unit, true, is_positive, "> 0"},
                   {"no_synapses", 0.0, "", true, is_count, "a count >= 0"},
                   {"synapses_per_driver", 50.0, "", true, is_positive_count, "a count >= 1"},
                   {"driver_readout_time", 15.0, "ms", true, is_positive, "> 0"},
                   {"a_causal", 0.0, ""},
                   {"a_acausal", 0.0, ""},
                   {"a_thresh_th", 21.835, ""},
                   {"a_thresh_tl", 21.835, ""},
                   {"init_flag", 0.0, "", false, is_bit, "0 or 1"},
                   {"synapse_id", 0.0, "", false, is_count, "a count >= 0"},
                   {"next_readout_time", 0.0, "ms"}},
    .lists =
        {{"lookuptable_0", {2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 15}, "", true, is_entry, "in [0, 15]"},
         {"lookuptable_1", {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 11, 12, 13}, "", true, is_entry, "in [0, 15]"},
         {"lookuptable_2", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "", true, is_entry, "in [0, 15]"},
         {"configbit_0", {0, 0, 1, 0}},
         {"configbit_1", {0, 1, 0, 0}},
         {"reset_pattern", {1, 1, 1, 1, 1, 1}}},
    .deliver = {deliver<false>, deliver<true>},
    .plastic = true,
    .own_records = true,
    .state = {0.0}};
[[maybe_unused]] const bool registered = register_synapse("stdp_facetshw_synapse_hom", &model);

}  // namespace
}  // namespace ranvier
