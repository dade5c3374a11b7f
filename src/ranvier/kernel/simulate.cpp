// The simulation cycle. Time advances in slices of min_delay steps: deliver the spikes of
// the last slice into ring buffers, update every neuron step by step, collocate the new
// spikes into one buffer sorted by (gid, time) so that every delivery order is the same
// whatever the partition.
#include <algorithm>
#include <cmath>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <omp.h>
#include <new>
#include <stdexcept>
#include <utility>

#include "core/errors.hpp"
#include "devices/device_model.hpp"
#include "devices/recorder_model.hpp"
#include "kernel/frozen_nodes.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {

// "auto" queues a thread's input above this much of synaptic rows: a thread's share of the
// last-level cache on the machines measured (docs/performance.md, "Queued input").
constexpr size_t queue_input_above_bytes = size_t(8) << 20;

class SliceContext final : public UpdateContext {
 public:
  SliceContext(Kernel& k, ThreadState& ts) : k_(k), ts_(ts) {
    h = k.h_;
    seed = k.seed_;
    eprop = k.eprop_schedule();
    input = &ts.input;
    tics_per_ms = k.tics_per_ms();
    step_tics = k.step_tics();
  }

  void spike(NeuronGroup& g, size_t i, int lag, double offset) override {
    if (g.is_frozen(i)) return;
    const int64_t stamp = origin + lag + 1;
    const uint32_t gid = g.gids[i];
    const double recorded_offset = offset;  // NEST's recorders subtract a payload too
    if (g.model->spike_payload()) ts_.payloads.push_back({gid, stamp, offset}), offset = 0.0;
    ts_.emitted.push_back({gid, offset_in_units(offset, h, k_.offset_units_), stamp});
    if (g.last_spike.empty()) g.last_spike.assign(g.size(), -1.0);
    g.last_spike[i] = double(stamp) * h - offset;
    if (g.structural.calcium >= 0) g.structural.spike(g, i, nest_ms(stamp) - offset, nest_ms(1));
    ++ts_.spikes_emitted;
    if (!ts_.archives.empty()) {
      const std::vector<int>& archived = g.model->archived_variables();
      archived_values_.clear();
      for (int v : archived) archived_values_.push_back(g.vars[size_t(v)][i]);
      for (uint32_t port = 0; port < g.ports; ++port)
        ts_.archives.record(g.input(i, port), stamp, offset, archived.empty() ? nullptr : archived_values_.data());
    }
    if (g.spike_recorders.empty()) return;
    for (const RecorderLink& link : g.spike_recorders[i]) {
      const Device& d = k_.network_.devices()[link.device];
      if (d.active_at(stamp, h))
        d.recorder->record_spike(d, ts_.recorded[link.device], {gid, stamp, recorded_offset, link.port, link.weight});
    }
  }

  void flush(NeuronGroup& g, size_t i, int lag) override {
    if (!g.is_frozen(i) && k_.flush_events_.active()) ts_.flushes.push_back({g.gids[i], 0, origin + lag + 1});
  }

  void fail(std::exception_ptr error) override {
    if (!ts_.failure) ts_.failure = error;
  }

  ModulatorSpikes& modulator_spikes(uint32_t gid) override { return ts_.modulators.of(gid); }
  void neuromodulate(uint32_t gid, int64_t stamp) override { k_.neuromodulate(ts_, gid, stamp); }

 protected:
  void sample(NeuronGroup& g, int lag) override {
    const int64_t stamp = origin + lag + 1;
    for (const Probe& p : g.probes) {
      if (g.is_frozen(p.neuron)) continue;
      const Device& mm = k_.network_.devices()[p.multimeter];
      // a multimeter recording nothing records no events (NEST's)
      if (mm.record_from.empty() || !mm.samples_at(stamp) || !mm.active_at(stamp, h)) continue;
      RecordedEvents& ev = ts_.recorded[p.multimeter];
      ev.senders.push_back(g.gids[p.neuron]);
      ev.stamps.push_back(stamp);
      for (int v : p.variables) ev.values.push_back(g.model->probe_value(g, p, v));
    }
  }

 private:
  Kernel& k_;
  ThreadState& ts_;
  std::vector<double> archived_values_;  // a spiking neuron's archived_variables()
};

// Runs one thread's part of a step: what it throws (a model's error, memory running out) stops
// the run as a neuron's failure does, rather than ending the process from the parallel region.
template <class Work>
void guarded(ThreadState& ts, Work&& work) {
  try {
    work();
  } catch (...) {
    if (!ts.failure) ts.failure = std::current_exception();
  }
}

// A run's error as it is, but memory running out, which says when: a bad_alloc names nothing.
[[noreturn]] void rethrow_named(std::exception_ptr error, double t_ms) {
  try {
    std::rethrow_exception(error);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("the simulation ran out of memory in the slice from t = " + std::to_string(t_ms) +
                           " ms (what the nodes produced, their spikes or their state, does not fit)");
  }
}

void Kernel::prepare() {
  network_.place_areas();
  if (prepared_ && prepared_revision_ == network_.revision()) return;
  ScopedTimer timer(times_.prepare);
  std::vector<ThreadState>& threads = network_.threads();
  network_.finalize_tables();
  prepare_delays();
  // Off-grid spikes travel in the finest units of a step their codes allow over the longest
  // cycle any placement may choose (it is at most max_delay): the same for every partition.
  const uint32_t units = network_.off_grid_spikes() ? LagCode::units_for(max_delay_ + min_delay_) : 1;
  if (units != offset_units_) pathways_.rescale_offsets(offset_units_, units);
  offset_units_ = units;

  bool plastic = false;
  for (const ThreadState& ts : threads)
    for (const auto* tables : {&ts.tables, &ts.long_tables})
      for (const ConnectionTable& table : *tables) plastic |= table.size() && table.plastic();
  std::vector<std::exception_ptr> errors(threads.size());
#pragma omp parallel for num_threads(int(threads.size())) schedule(static, 1)
  for (size_t t = 0; t < threads.size(); ++t) {
    try {
      prepare_thread(threads[t], plastic);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  PathwayPlan plan{min_delay_,
                   D_,
                   min_delay_inter_,
                   long_range_,
                   network_.area_placement(),
                   network_.area_color(),
                   node_count(),
                   network_.off_grid_spikes() ? offset_units_ + 1 : 1,
                   &threads,
                   [this](uint32_t gid) { return network_.vp_of(gid).rank; }};
  pathways_.prepare(plan);
  coupling_.prepare(threads, network_.synapse_models(), *comm_, min_delay_, config_.use_wfr,
                    config_.wfr_interpolation_order);
  flush_events_.prepare(threads, network_.synapse_models(), *comm_);
  payloads_.prepare(threads, *comm_);
  prepared_ = true;
  prepared_revision_ = network_.revision();
#ifdef __GLIBC__
  // Sorting freed the staging chunks (more than the tables now hold); glibc keeps freed
  // memory in its arenas unless asked to give it back.
  malloc_trim(0);
#endif
}

// One thread's buffers, parameters and spike archives for the simulation ahead.
void Kernel::prepare_thread(ThreadState& ts, bool plastic) {
  prepare_synapse_targets(ts);
  // Long-range input may wait long_wait() cycles for its delivery.
  // Current rows for current generators and for slow inward currents (kernel/coupling.hpp).
  const bool currents = std::any_of(ts.stimuli.begin(), ts.stimuli.end(),
                                    [&](const StimulusConnection& c) {
                                      return network_.devices()[c.device].stimulator->sends_current();
                                    }) ||
                        std::any_of(ts.groups.begin(), ts.groups.end(), [](const NeuronGroup& g) {
                          const CoupledModel* m = g.model->coupled_model();
                          return m && m->joins(SecondaryEvent::slow_inward_current);
                        });
  // Rows for the columns up to the last that sums its input or takes currents; the others
  // take events.
  std::vector<uint8_t> takes_events(ts.n_inputs(), 0);
  size_t summed = 0;
  bool events = false;
  for (const NeuronGroup& g : ts.groups) {
    const size_t end = g.first_input + g.size() * g.ports;
    if (!g.model->takes_events() || g.model->takes_currents()) summed = std::max(summed, end);
    if (g.model->takes_events() && end > g.first_input) {
      std::fill(takes_events.begin() + g.first_input, takes_events.begin() + long(end), uint8_t(1));
      events = true;
    }
  }
  const size_t slots = size_t(max_delay_ + long_wait() * min_delay_);
  ts.input.reshape(slots, summed, long_range_, step(), currents,
                   events ? std::move(takes_events) : std::vector<uint8_t>{});
  ts.input.queue_input(config_.queued_input == "on" ||
                       (config_.queued_input == "auto" && ts.input.synaptic_row_bytes() > queue_input_above_bytes));
  ts.tap_input.reshape(slots, 0, false, step(), false, std::vector<uint8_t>(ts.tap_stimuli.size(), 1));
  for (NeuronGroup& g : ts.groups) g.model->calibrate(g, h_);
  ts.recorded.resize(network_.devices().size());
  ts.input_receptor.assign(ts.n_inputs(), 0);
  for (const NeuronGroup& g : ts.groups)
    for (uint32_t port = 0; port < g.ports; ++port)
      for (size_t i = 0; i < g.size(); ++i) ts.input_receptor[g.input(i, port)] = g.model->receptor(port);
  if (!plastic) return;
  // Plastic synapses may see a spike long_wait() cycles late: K- lookups reach back that far.
  ts.archives.resize(ts.n_inputs(), history_steps(), h_);
  const char* post_trace = nullptr;                // the targets' parameter the plastic models' K- decays by
  const char* post_triplet = nullptr;              // and the parameter of a triplet trace some read
  std::vector<uint8_t> triplet(ts.n_inputs(), 0);  // the targets of those models
  std::vector<uint8_t> values(ts.n_inputs(), 0);   // the targets of synapses that read the values kept with spikes
  for (auto* tables : {&ts.tables, &ts.long_tables})
    for (size_t syn = 0; syn < tables->size(); ++syn) {
      const ConnectionTable& table = (*tables)[syn];
      if (!table.plastic() || table.size() == 0) continue;
      const SynapseBase& base = *network_.synapse_models()[syn].base;
      const char* wanted = base.post_trace_tau;
      if (post_trace && wanted && std::string(post_trace) != wanted)
        throw KernelStateError("plastic synapses onto one thread read postsynaptic traces of " +
                               std::string(post_trace) + " and of " + wanted + "; a spike archive keeps one");
      if (wanted) post_trace = wanted;
      if (base.post_triplet_tau) post_triplet = base.post_triplet_tau;
      for (size_t k = 0; k < table.size(); ++k) {
        ts.archives.add_incoming(table.targets()[k]);
        if (base.post_triplet_tau) triplet[table.targets()[k]] = 1;
        if (base.paired_neuron) values[table.targets()[k]] = 1;
      }
    }
  for (NeuronGroup& g : ts.groups) {
    const int v = post_trace ? g.model->index_of(post_trace) : -1;
    const int v_triplet = post_triplet ? g.model->index_of(post_triplet) : -1;
    for (size_t i = 0; i < g.size(); ++i)
      for (uint32_t port = 0; port < g.ports; ++port) {
        ts.archives.set_tau_minus(g.input(i, port), v >= 0 ? g.vars[size_t(v)][i] : 20.0);
        if (triplet[g.input(i, port)])  // NEST's default where a model (a module's) lacks the parameter
          ts.archives.keep_triplet(g.input(i, port), v_triplet >= 0 ? g.vars[size_t(v_triplet)][i] : 110.0);
        if (values[g.input(i, port)])
          ts.archives.keep_values(g.input(i, port), uint32_t(g.model->archived_variables().size()));
      }
  }
}

// The cycle is the smallest delay within areas; long-range spikes travel globally once every
// D = floor(min_delay_inter / min_delay) cycles (Lober et al. (2026), eq. 1), D capped by max_D;
// one less with overlap_exchange, whose long-range exchange takes one more cycle.
void Kernel::prepare_delays() {
  int min_short = INT32_MAX, min_long = INT32_MAX, max_d = 1;
  for (const ThreadState& ts : network_.threads()) {
    for (size_t syn = 0; syn < ts.tables.size(); ++syn) {
      // a continuous delay's spike may arrive a step after its stored steps (ContinuousDelay)
      const int later = network_.synapse_models()[syn].base->delay_offset_slot >= 0 ? 1 : 0;
      if (const ConnectionTable& table = ts.tables[syn]; table.size())
        min_short = std::min(min_short, int(table.min_delay())), max_d = std::max(max_d, table.max_delay() + later);
      if (const ConnectionTable& table = ts.long_tables[syn]; table.size())
        min_long = std::min(min_long, int(table.min_delay())), max_d = std::max(max_d, table.max_delay() + later);
    }
    for (const auto* stimuli : {&ts.stimuli, &ts.tap_stimuli})
      for (const StimulusConnection& c : *stimuli) max_d = std::max(max_d, int(c.delay));
  }
  DelayExtrema nest = network_.delay_extrema();  // this rank's, of every connection
  // NEST counts the delays structural plasticity's synapses will have, as between neurons
  if (const DelayExtrema structural = structural_.delays(h_); !structural.empty()) {
    nest.add(structural);
    min_short = std::min(min_short, int(structural.min)), max_d = std::max(max_d, int(structural.max));
  }
  int64_t modulated = 0;  // synapses of volume transmitters exist
  for (const ThreadState& ts : network_.threads())
    for (size_t syn = 0; syn < ts.tables.size(); ++syn)
      if (network_.synapse_models()[syn].base->modulate && ts.tables[syn].size() + ts.long_tables[syn].size())
        modulated = 1;
  std::vector<int64_t> extremes{min_short, min_long, -max_d, nest.min, -nest.max, -modulated};  // all ranks agree
  comm_->allreduce(extremes, ReduceOp::min);
  min_short = int(extremes[0]), min_long = int(extremes[1]), max_d = int(-extremes[2]);
  network_.set_delay_extrema({extremes[3], -extremes[4]});
  const bool long_range = min_long != INT32_MAX;
  int cycle = std::min(min_short, min_long);
  // Volume transmitters deliver every deliver_interval x NEST's min_delay, which counts every
  // connection (devices' too), and their synapses catch up on the cycle's spikes first.
  if (extremes[5] < 0) cycle = std::min(cycle, int(extremes[3]));
  // Without connections between neurons nothing limits the cycle; 1 ms keeps it cheap.
  if (cycle == INT32_MAX) cycle = std::max(1, int(std::lround(1.0 / h_)));
  if (config_.min_delay > 0.0) {  // the user's extrema (NEST's): every delay lies within them
    cycle = int(config_.min_delay_steps());
    max_d = std::max(max_d, int(config_.max_delay_steps()));
  }
  const int room = min_long / cycle - (config_.overlap_exchange && min_long / cycle >= 2 ? 1 : 0);
  const int d = long_range && min_short != INT32_MAX ? std::max(1, std::min(room, config_.max_D)) : 1;
  const bool changed = cycle != min_delay_ || d != D_;
  if (changed && (lag_ != 0 || (long_range_ && origin_ % (int64_t(D_) * min_delay_) != 0)))
    throw KernelStateError(
        "new connections (or overlap_exchange with areas) changed min_delay or D in the "
        "middle of a cycle; simulate in multiples of min_delay x D first");
  min_delay_ = cycle;
  min_delay_inter_ = long_range ? min_long : 0;
  max_delay_ = std::max(max_d, cycle);
  D_ = d;
  long_range_ = long_range;
}

std::vector<Spike> Kernel::collocate() {
  std::vector<Spike> local;
  for (ThreadState& ts : network_.threads()) {
    local.insert(local.end(), ts.emitted.begin(), ts.emitted.end());
    ts.emitted.clear();
  }
  std::sort(local.begin(), local.end());
  return local;
}

// The end of a cycle, on the master thread: the cycle's spikes into one buffer, for the
// exchange part to send to the ranks that need them.
void Kernel::end_cycle() {
  std::vector<Spike> local;
  {
    ScopedTimer timer(times_.collocate);
    local = collocate();
  }
  // The cycle time of Lober et al. (2026): deliver + update + collocate, before any waiting.
  if (config_.record_cycle_times) cycle_times_.push_back(cycle_clock_.lap());
  pathways_.end_cycle(local, origin_);
  if (coupling_.active()) coupling_.end_cycle(*comm_);
  if (flush_events_.active()) flush_events_.end_cycle(network_.threads(), *comm_);
  if (payloads_.active()) payloads_.end_cycle(network_.threads(), *comm_, origin_ + min_delay_ - history_steps());
}

// overlap_exchange: the first epoch's spikes go out while the second epoch updates.
void Kernel::start_epoch_exchange() {
  std::vector<Spike> local;
  {
    ScopedTimer timer(times_.collocate);
    local = collocate();
  }
  pathways_.start_epoch(local, origin_, lag_);
}

// The master thread's share of an epoch while an exchange is in flight: step by step, with
// a test after each step, because MPI advances a non-blocking collective only inside MPI
// calls; once the exchange is seen complete, the rest of the epoch in one piece.
void Kernel::update_progressing(ThreadState& ts, UpdateContext& ctx, int from, int to) {
  for (int lag = from; lag < to; ++lag) {
    ctx.from = lag;
    ctx.to = pathways_.hiding() ? lag + 1 : to;
    for (NeuronGroup& g : ts.groups) update_group(g, ctx);
    if (ctx.to == to) return;
    pathways_.progress();
  }
}

// Passes over the whole cycle until every coupled neuron settles; all threads (and ranks)
// take the same number, and the instantaneous input of the last pass feeds the cycle's update.
void Kernel::relax_coupling(ThreadState& ts, UpdateContext& ctx, int thread) {
  ctx.origin = origin_;
  ctx.min_delay = min_delay_;
  ctx.from = 0;
  ctx.to = min_delay_;
  for (int pass = 0; pass < config_.wfr_max_iterations; ++pass) {
    guarded(ts, [&] { coupling_.relax(thread, ctx, config_.wfr_tol); });
#pragma omp barrier
#pragma omp master
    {
      try {
        coupling_.end_pass(*comm_);
      } catch (...) {
        cycle_error_ = std::current_exception();
      }
      if (!coupling_.settled() && pass + 1 == config_.wfr_max_iterations) coupling_.count_unsettled();
    }
#pragma omp barrier
    guarded(ts, [&] { coupling_.deliver_pass(ts, thread); });
    if (coupling_.settled()) return;
  }
}

// An error on some ranks before the cycles start becomes an error on every rank (the
// failing ranks' own, a KernelStateError on the others), so no rank waits in an exchange
// for one that has stopped. Python's kernel_errors then gives all ranks the first one's.
void Kernel::agree_on_failure(std::exception_ptr error) {
  std::vector<int64_t> first{error ? comm_->rank() : comm_->size()};
  comm_->allreduce(first, ReduceOp::min);
  if (error) std::rethrow_exception(error);
  if (first[0] != comm_->size()) throw KernelStateError("Simulate failed on rank " + std::to_string(first[0]));
}

// Tables of the current parameters, made before every simulation: what each stimulator
// derives, the synapse models' trace decays.
void Kernel::tabulate() {
  prepare_stimulators();
  for (uint32_t id = 0; id < network_.synapse_model_count(); ++id) network_.synapse_model(id).tabulate(h_);
}

void Kernel::prepare_on_every_rank() {
  std::exception_ptr failed;
  try {
    prepare();
  } catch (...) {
    failed = std::current_exception();
  }
  if (comm_->size() > 1) agree_on_failure(failed);
  if (failed) std::rethrow_exception(failed);
}

void Kernel::simulate(int64_t steps) {
  if (steps < 0) throw BadParameterError("simulation time must be >= 0");
  if (!structural_.enabled() || steps == 0) return run(steps);
  const int64_t end = step() + steps;
  const double interval = config_.structural_plasticity_update_interval;
  while (step() < end) {
    // NEST tests each cycle's start; a time between cycles is never one
    if (lag_ == 0 && structure_updated_at_ != step() && std::fmod(nest_ms(step()), interval) == 0.0) {
      update_structure();
      structure_updated_at_ = step();
    }
    // up to the next time that is a multiple of the interval
    const double next = (std::floor(nest_ms(step()) / interval) + 1.0) * interval;
    const int64_t next_step = std::max(step() + 1, int64_t(std::ceil(next / nest_ms(1) - 1e-9)));
    run(std::min(end, next_step) - step());
  }
}

// NEST's order: the last cycle's spikes reach the connections it had, then the connectivity
// changes (so that no new synapse takes a spike sent before it was made, and no rank misses a
// spike its new synapses would need); the cycle then goes on without delivering them again.
void Kernel::update_structure() {
  prepare_on_every_rank();
  ScopedTimer timer(times_.structural);  // the delivery ahead too: outside time_simulate
  if (delivered_ahead_ != origin_) {     // once, also where an update failed and is tried again
    tabulate();
    std::vector<ThreadState>& threads = network_.threads();
#pragma omp parallel num_threads(int(threads.size()))
    {
      const int t = omp_get_thread_num();
      guarded(threads[size_t(t)], [&] { deliver_received(threads[size_t(t)], t); });
    }
    pathways_.lumped_delivered();
    delivered_ahead_ = origin_;
    std::exception_ptr failed;
    for (ThreadState& ts : threads)
      if (ts.failure && !failed) failed = std::exchange(ts.failure, nullptr);
    if (comm_->size() > 1) agree_on_failure(failed);
    if (failed) std::rethrow_exception(failed);
  }
  structural_.update(network_, *comm_, step(), nest_ms(step()), nest_ms(1), seed_);
}

void Kernel::deliver_received(ThreadState& ts, int thread) {
  // secondary events first, as NEST: a learning signal is in the history an e-prop synapse
  // reads at the spike delivered with it
  if (coupling_.active()) coupling_.deliver(ts, thread, origin_);
  const std::vector<Spike>& received = pathways_.received();
  const Spike* spikes = received.data();
  deliver(ts, ts.tables, spikes, spikes + received.size(), false);
  if (long_range_ && pathways_.single_exchange()) deliver(ts, ts.long_tables, spikes, spikes + received.size(), true);
  if (pathways_.lumped_ready()) deliver_lumped(ts);
  if (flush_events_.active()) {
    const std::vector<Spike>& flushes = flush_events_.received();
    deliver(ts, ts.tables, flushes.data(), flushes.data() + flushes.size(), false, true);
  }
}

void Kernel::run(int64_t steps) {
  prepare_on_every_rank();
  ScopedTimer timer(times_.simulate);
  tabulate();
  const int64_t end = step() + steps;
  cycle_error_ = nullptr;
  std::vector<ThreadState>& threads = network_.threads();
  for (ThreadState& ts : threads) ts.failure = nullptr;
  // A diverged neuron stops a single process at the end of the slice; ranks run to the end
  // of the call (no rank may leave the exchanges alone) and agree on the error afterwards.
  bool halted = false;
#pragma omp parallel num_threads(int(threads.size()))
  {
    const int t = omp_get_thread_num();
    ThreadState& ts = threads[size_t(t)];
    SliceContext ctx(*this, ts);
    Stopwatch* phase = nullptr;
    auto mark = [&](Stopwatch* next) {  // the master thread times each phase barrier to barrier
      if (t != 0) return;
      if (phase) phase->stop();
      phase = next;
      if (phase) phase->start();
    };
    while (step() < end && !cycle_error_ && !halted) {
      const int from = lag_;
      const int split = pathways_.epoch_split();
      int to = int(std::min<int64_t>(min_delay_, from + (end - step())));
      if (from < split) to = std::min(to, split);
      if (from == 0) {
        if (t == 0) cycle_clock_.start();
        mark(&times_.deliver);
        if (delivered_ahead_ != origin_) guarded(ts, [&] { deliver_received(ts, t); });
        mark(&times_.stimulate);  // the master thread's share; the barrier's wait goes here
        guarded(ts, [&] {
          stimulate(ts);
          for (int64_t s = origin_; s < origin_ + min_delay_; ++s) ts.input.settle(s);
        });
#pragma omp barrier
        if (t == 0) pathways_.lumped_delivered();  // no thread reads it again before the next barrier
        if (coupling_.relaxes()) {
          mark(&times_.relax);
          relax_coupling(ts, ctx, t);
        }
      }
      mark(&times_.update);
      ctx.origin = origin_;
      ctx.min_delay = min_delay_;
      ctx.from = from;
      ctx.to = to;
      guarded(ts, [&] {
        if (t == 0 && pathways_.in_flight()) {
          update_progressing(ts, ctx, from, to);
        } else {
          for (NeuronGroup& g : ts.groups) update_group(g, ctx);
        }
        for (int lag = from; lag < to; ++lag) ts.input.clear_events(origin_ + lag);
        if (!ts.tap_stimuli.empty()) record_taps(ts, from, to);
        if (!ts.generator_probes.empty()) record_generators(ts, from, to);
      });
      ts.neuron_steps += ts.n_local() * uint64_t(to - from);
#pragma omp barrier
      mark(nullptr);
#pragma omp master
      {
        try {
          if (to == min_delay_) {
            end_cycle();
            origin_ += min_delay_;
            lag_ = 0;
          } else {
            lag_ = to;
            if (to == split) start_epoch_exchange();
          }
        } catch (...) {
          cycle_error_ = std::current_exception();
        }
        if (comm_->size() == 1)
          for (const ThreadState& other : threads) halted = halted || other.failure;
      }
#pragma omp barrier
    }
  }
  // An exchange still under way (the run stopped inside the cycle's second epoch, or before the
  // long-range exchange was due) completes here: nothing stays in flight between Simulate calls.
  if (!cycle_error_) pathways_.finish();
  if (cycle_error_) rethrow_named(cycle_error_, double(step()) * h_);
  collect_events();  // what was recorded up to the failure stays readable
  for (const ThreadState& ts : threads)
    if (ts.failure) rethrow_named(ts.failure, double(step()) * h_);
}

}  // namespace ranvier
