// NEST 3.10's eprop_synapse_bsshslm_2020: e-prop as Bellec et al. (2020) first had it. The
// synapse collects its source's inter-spike intervals and, at the first spike after each update
// interval (the kernel's eprop_update_interval) ends, computes the interval's gradient from its
// target's history (models/eprop_iaf_bsshslm_2020.cpp, models/eprop_readout_bsshslm_2020.cpp)
// and lets the optimizer move its weight; spikes into a recurrent neuron at an interval's first
// step are not transmitted, as in NEST. The intervals are kept per connection in the thread's
// list pool (ThreadState::spike_intervals), the rest of the state in its record.
#include "kernel/synapse_event.hpp"
#include "models/eprop_model.hpp"
#include "synapses/models/eprop_optimizer.hpp"

namespace ranvier {
namespace {

enum Parameter { kWeight, kDelay };
// the record: tau_m_readout, then the state
enum Slot {
  tau_m_readout,
  t_previous,         // the last transmitted spike (0: none)
  previous_flush,     // whether the last event was a flush event
  t_previous_update,  // the start of the interval of the last update
  t_next_update,      // the start of the next interval (-1: not set)
  t_trigger,          // the spike that triggered the last update (0: none)
  gradient,           // summed since the last optimization
  intervals,          // the connection's list in the pool (-1: none yet)
  optimizer           // WeightOptimizer's state from here on
};

template <bool Record>
void deliver(const SynapseEvent& e) {
  const WeightOptimizer opt = eprop_optimizer::of(e.model);
  const bool average = e.model.value(eprop_optimizer::kFirstOwn) != 0.0;  // average_gradient
  const uint32_t* target = e.targets();
  double* weight = e.weights();
  double* record = e.records();
  const size_t rs = e.table.records().stride();
  const int64_t interval = e.eprop.update_interval, t_spike = e.stamp;
  std::vector<std::vector<int64_t>>& pool = e.ts.spike_intervals;
  e.table.delays().with_run(e.source_index, e.range.begin, [&](const auto* delay, size_t ds) {
    for (size_t k = 0; k < e.size(); ++k) {
      const InputOwner& owner = e.ts.input_owners[target[k]];
      NeuronGroup& g = *owner.group;
      const EpropModel& model = *g.model->eprop_model();
      EpropArchive& archive = EpropModel::archive(g, owner.neuron);
      double* r = record + k * rs;
      if (r[t_next_update] < 0) r[t_next_update] = double(interval);
      if (r[intervals] < 0) {
        r[intervals] = double(pool.size());
        pool.emplace_back();
      }
      std::vector<int64_t>& isis = pool[size_t(r[intervals])];
      const bool after_flush = r[previous_flush] != 0.0;
      if (after_flush) {
        if (e.flush) continue;
        r[t_previous] = r[t_trigger] = double(t_spike);
      }
      const int64_t shift = model.shift();
      if (model.recurrent() && (t_spike - shift) % interval == 0) continue;
      if (r[t_trigger] == 0.0) r[t_trigger] = double(t_spike);
      const int64_t next = int64_t(r[t_next_update]) + shift, previous = int64_t(r[t_previous]);
      if (previous > 0) {
        const int64_t isi = std::min(t_spike, next) - std::min(previous, next);
        if (isi > 0) isis.push_back(isi);
      }
      double w = weight[k];
      const auto optimize = [&](int64_t update) {
        w = opt.optimized(r + optimizer, update, r[gradient], w);
        r[gradient] = 0.0;
      };
      if (t_spike > next) {
        const int64_t update = (t_spike - shift) / interval, t_current = update * interval;
        archive.move_update_mark(int64_t(r[t_previous_update]), t_current, shift, e.flush, after_flush);
        if (!isis.empty() && previous > 0) {
          const double kappa = std::exp(-e.resolution / r[tau_m_readout]);
          r[gradient] += model.interval_gradient(g, owner.neuron, isis, int64_t(r[t_previous_update]),
                                                 int64_t(r[t_trigger]), kappa, average, e.eprop);
        }
        isis.clear();
        if (!e.flush) optimize(update);
        r[t_previous_update] = double(t_current);
        r[t_next_update] = double(t_current + interval);
        r[t_trigger] = double(t_spike);
      } else if (!e.flush && after_flush) {
        const int64_t update = (t_spike - shift) / interval;
        archive.move_update_mark(int64_t(r[t_previous_update]), update * interval, shift, false, true);
        optimize(update);
      }
      weight[k] = w;
      r[previous_flush] = e.flush ? 1.0 : 0.0;
      if (e.flush) continue;
      r[t_previous] = double(t_spike);
      e.ts.input.add_at_slot(e.ts.input.slot_after(e.emitted, delay[k * ds]), target[k], w, e.long_range, e.offset,
                             e.source);
      if constexpr (Record) e.record(k, target[k], w);
    }
  });
}

// The state after tau_m_readout: all 0 but the next update and the list, not known yet.
std::vector<double> initial_state() {
  std::vector<double> s(optimizer - t_previous, 0.0);
  s[t_next_update - t_previous] = s[intervals - t_previous] = -1.0;
  s.insert(s.end(), std::begin(WeightOptimizer::initial), std::end(WeightOptimizer::initial));
  return s;
}

const SynapseBase bsshslm{
    .parameters = eprop_optimizer::parameters(
        {{"average_gradient", 0.0, "", true}, {"tau_m_readout", 10.0, "ms", false, is_positive, "> 0"}}),
    .deliver = {deliver<false>, deliver<true>},
    .plastic = true,
    .own_records = true,
    .eprop = Eprop::bsshslm_2020,
    .state = initial_state(),
    .named_state = {{"optimizer.m", optimizer - t_previous + WeightOptimizer::m},
                    {"optimizer.v", optimizer - t_previous + WeightOptimizer::v}},
    .check_weight = eprop_optimizer::check_weight,
    .check_model = eprop_optimizer::check_model};
// NEST has eprop_synapse_bsshslm_2020 and its _hpc variant (no _lbl)
[[maybe_unused]] const bool registered = SynapseBases::instance().add("eprop_synapse_bsshslm_2020", &bsshslm) &&
                                         SynapseBases::instance().add("eprop_synapse_bsshslm_2020_hpc", &bsshslm);

}  // namespace
}  // namespace ranvier
