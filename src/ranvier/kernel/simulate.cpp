// The simulation cycle. Time advances in slices of min_delay steps: deliver the spikes of
// the last slice into ring buffers, update every neuron step by step, collocate the new
// spikes into one buffer sorted by (gid, time) so that every delivery order is the same
// whatever the partition.
#include <algorithm>
#include <omp.h>
#include <stdexcept>

#include "kernel/kernel.hpp"

namespace ranvier {

class SliceContext final : public UpdateContext {
 public:
  SliceContext(Kernel& k, ThreadState& ts) : k_(k), ts_(ts) {
    h = k.h_;
    seed = k.seed_;
    input = &ts.input;
  }

  void spike(NeuronGroup& g, size_t i, int lag) override {
    const int64_t stamp = origin + lag + 1;
    const uint32_t gid = g.gids[i];
    ts_.emitted.push_back({gid, stamp});
    ++ts_.spikes_emitted;
    const uint32_t lid = g.first_lid + uint32_t(i);
    if (!ts_.archives.empty()) ts_.archives[lid].record(double(stamp) * h, ts_.tau_minus[lid]);
    if (g.spike_recorders.empty()) return;
    for (uint32_t d : g.spike_recorders[i]) {
      if (!k_.devices_[d].active_at(stamp, h)) continue;
      ts_.recorded[d].senders.push_back(gid);
      ts_.recorded[d].stamps.push_back(stamp);
    }
  }

 protected:
  void sample(NeuronGroup& g, int lag) override {
    const int64_t stamp = origin + lag + 1;
    for (const Probe& p : g.probes) {
      const Device& mm = k_.devices_[p.multimeter];
      if (stamp % mm.interval_steps != 0 || !mm.active_at(stamp, h)) continue;
      RecordedEvents& ev = ts_.recorded[p.multimeter];
      ev.senders.push_back(g.gids[p.neuron]);
      ev.stamps.push_back(stamp);
      for (int v : p.variables) ev.values.push_back(g.vars[size_t(v)][p.neuron]);
    }
  }

 private:
  Kernel& k_;
  ThreadState& ts_;
};

void Kernel::prepare() {
  if (prepared_) return;
  ScopedTimer timer(times_.prepare);
#pragma omp parallel for num_threads(int(threads_.size())) schedule(static, 1)
  for (size_t t = 0; t < threads_.size(); ++t)
    for (ConnectionTable& table : threads_[t].tables) table.finalize();

  int min_d = INT32_MAX, max_d = 1;
  bool plastic = false;
  for (const ThreadState& ts : threads_) {
    for (const ConnectionTable& table : ts.tables) {
      if (table.size() == 0) continue;
      min_d = std::min(min_d, int(table.min_delay()));
      max_d = std::max(max_d, int(table.max_delay()));
      plastic |= table.kind() == SynapseKind::stdp_pl_hom;
    }
    for (const StimulusConnection& c : ts.stimuli) max_d = std::max(max_d, int(c.delay));
  }
  std::vector<int64_t> extremes{min_d, -max_d};  // all ranks agree on the cycle length
  comm_->allreduce(extremes, ReduceOp::min);
  min_d = int(extremes[0]);
  max_d = int(-extremes[1]);
  // Without connections between neurons nothing limits the slice; 1 ms keeps it cheap.
  if (min_d == INT32_MAX) min_d = std::max(1, int(std::lround(1.0 / h_)));
  max_d = std::max(max_d, min_d);
  if (lag_ != 0 && min_d != min_delay_)
    throw std::runtime_error("connections changed min_delay in the middle of a slice; "
                             "simulate in multiples of min_delay before connecting");
  min_delay_ = min_d;
  max_delay_ = max_d;

  for (ThreadState& ts : threads_) {
    ts.input.reshape(size_t(min_delay_ + max_delay_), ts.n_local(), step());
    for (NeuronGroup& g : ts.groups) g.model->calibrate(g, h_);
    ts.recorded.resize(devices_.size());
    ts.counts_spikes.assign(ts.n_local(), 0);
    for (NeuronGroup& g : ts.groups)
      if (g.model->counts_spikes())
        std::fill_n(ts.counts_spikes.begin() + g.first_lid, g.size(), uint8_t(1));
    if (!plastic) continue;
    ts.archives.resize(ts.n_local());
    ts.tau_minus.assign(ts.n_local(), 20.0);
    for (SpikeArchive& a : ts.archives) a.n_incoming = 0;
    for (ConnectionTable& table : ts.tables)
      if (table.kind() == SynapseKind::stdp_pl_hom)
        for (size_t k = 0; k < table.size(); ++k) ++ts.archives[table.targets()[k]].n_incoming;
    for (NeuronGroup& g : ts.groups) {
      const int v = g.model->tau_minus_index();
      if (v >= 0)
        for (size_t i = 0; i < g.size(); ++i) ts.tau_minus[g.first_lid + i] = g.vars[size_t(v)][i];
    }
  }
  prepare_exchange();
  prepared_ = true;
}

void Kernel::prepare_exchange() {
  ExchangeSetup& x = exchange_setup_;
  x = ExchangeSetup{};
  x.comm = comm_.get();
  x.min_delay = min_delay_;
  x.multisend_phases = config_.multisend_phases;
  x.dry_run_ranks = config_.dry_run;
  x.max_gid = node_count();
  for (const ThreadState& ts : threads_) x.local_gids.insert(x.local_gids.end(), ts.lid_gid.begin(), ts.lid_gid.end());
  std::sort(x.local_gids.begin(), x.local_gids.end());
  const int m = comm_->size();
  if (exchange_->directed()) {
    // Target tables: every rank tells the owner of each source it stores connections for
    // that it needs that source's spikes (one all-to-all round).
    std::vector<uint32_t> sources;
    for (const ThreadState& ts : threads_)
      for (const ConnectionTable& table : ts.tables)
        sources.insert(sources.end(), table.sources().begin(), table.sources().end());
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    std::vector<std::vector<uint8_t>> send(static_cast<size_t>(m));
    for (uint32_t s : sources) {
      const int owner = vp_of(s).rank;
      if (owner != rank_) append_bytes(send[size_t(owner)], &s, 1);
    }
    const auto received = comm_->alltoallv(send);
    std::vector<std::vector<int32_t>> wanted_by(x.local_gids.size());
    for (int r = 0; r < m; ++r)
      for (uint32_t gid : from_bytes<uint32_t>(received[size_t(r)].data(), received[size_t(r)].size()))
        wanted_by[index_in(x.local_gids, gid)].push_back(r);
    x.target_offsets.assign(1, 0);
    for (const auto& ranks : wanted_by) {
      x.target_ranks.insert(x.target_ranks.end(), ranks.begin(), ranks.end());
      x.target_offsets.push_back(x.target_ranks.size());
    }
  }
  if (exchange_method_ == "allgather") {  // decoding needs every rank's neuron list
    std::vector<uint8_t> mine;
    append_bytes(mine, x.local_gids.data(), x.local_gids.size());
    std::vector<size_t> counts;
    const std::vector<uint8_t> all = comm_->allgatherv(mine, counts);
    size_t offset = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      x.rank_gids.push_back(from_bytes<uint32_t>(all.data() + offset, counts[r]));
      offset += counts[r];
    }
  }
  exchange_->prepare(x);
}

void Kernel::deliver(ThreadState& ts) {
  for (size_t syn = 0; syn < ts.tables.size(); ++syn) {
    ConnectionTable& table = ts.tables[syn];
    if (table.size() == 0) continue;
    const uint32_t* target = table.targets();
    const uint8_t* counts = ts.counts_spikes.data();
    double* weight = table.weights();
    const uint16_t* delay = table.delays();
    const bool plastic = table.kind() == SynapseKind::stdp_pl_hom;
    const StdpPlParameters& stdp = synapse_models_[syn].stdp;
    size_t hint = 0;
    for (const Spike& s : spike_buffer_) {
      hint = table.seek(s.gid, hint);
      if (hint == table.sources().size()) break;
      if (table.sources()[hint] != s.gid) continue;
      const SourceRange r = table.range_at(hint);
      if (!plastic) {
        for (size_t k = r.begin; k < r.end; ++k)
          ts.input.add_weight(s.stamp + delay[k] - 1, target[k], counts[target[k]] ? 1.0 : weight[k]);
        continue;
      }
      // stdp_pl_synapse_hom: facilitation by the post spikes since the last pre spike,
      // depression by the post trace at this pre spike, both seen through the delay.
      const double t_spike = double(s.stamp) * h_;
      double* k_plus = table.k_plus();
      double* t_last = table.t_last_spike();
      for (size_t k = r.begin; k < r.end; ++k) {
        SpikeArchive& post = ts.archives[target[k]];
        const double d = delay[k] * h_;
        const auto [b, e] = post.window(t_last[k] - d, t_spike - d, max_delay_ * h_);
        double w = weight[k];
        for (size_t q = b; q < e; ++q) {
          const double minus_dt = t_last[k] - (post.history[q].t_ms + d);
          w = stdp.facilitate(w, k_plus[k] * std::exp(minus_dt / stdp.tau_plus));
        }
        w = stdp.depress(w, post.k_minus_at(t_spike - d, ts.tau_minus[target[k]]));
        weight[k] = w;
        ts.input.add_weight(s.stamp + delay[k] - 1, target[k], counts[target[k]] ? 1.0 : w);
        k_plus[k] = k_plus[k] * std::exp((t_last[k] - t_spike) / stdp.tau_plus) + 1.0;
        t_last[k] = t_spike;
      }
    }
  }
}

void Kernel::deliver_stimuli(ThreadState& ts) {
  // Input that the stimulators generate during the slice's steps, placed at its arrival.
  const int64_t first = origin_, last = origin_ + min_delay_;
  const uint8_t* counts = ts.counts_spikes.data();
  for (const StimulusConnection& c : ts.stimuli) {
    const Device& dev = devices_[c.device];
    switch (dev.type) {
      case DeviceType::poisson_generator: {
        const Stream train(seed_, Purpose::poisson_input, dev.gid, c.target_gid);
        const double mean = dev.rate * h_ * 1e-3;
        for (int64_t s = first; s < last; ++s) {
          if (!dev.active_at(s + 1, h_)) continue;
          const uint32_t n = train.poisson(uint64_t(s), mean);
          if (n) ts.input.add_weight(s + c.delay, c.target, (counts[c.target] ? 1.0 : c.weight) * n);
        }
        break;
      }
      case DeviceType::dc_generator:
        for (int64_t s = first; s < last; ++s)
          if (dev.active_at(s + 1, h_)) ts.input.add_current(s + c.delay, c.target, c.weight * dev.amplitude);
        break;
      case DeviceType::spike_generator: {
        auto it = std::upper_bound(dev.spike_steps.begin(), dev.spike_steps.end(), first);
        for (; it != dev.spike_steps.end() && *it <= last; ++it) {
          if (!dev.active_at(*it, h_)) continue;
          const size_t k = size_t(it - dev.spike_steps.begin());
          const double w = dev.spike_weights.empty() ? c.weight : dev.spike_weights[k];
          ts.input.add_weight(*it - 1 + c.delay, c.target, counts[c.target] ? 1.0 : w);
        }
        break;
      }
      default: break;
    }
  }
}

std::vector<Spike> Kernel::collocate() {
  std::vector<Spike> local;
  for (ThreadState& ts : threads_) {
    local.insert(local.end(), ts.emitted.begin(), ts.emitted.end());
    ts.emitted.clear();
  }
  std::sort(local.begin(), local.end());
  return local;
}

// The end of a cycle, on the master thread: spikes into one buffer, exchanged with the other
// ranks, sorted by (gid, stamp) for the next deliver.
void Kernel::end_cycle() {
  std::vector<Spike> local;
  {
    ScopedTimer timer(times_.collocate);
    local = collocate();
  }
  // The cycle time of seed 002: deliver + update + collocate, before any waiting.
  if (config_.record_cycle_times) cycle_times_.push_back(cycle_clock_.lap());
  if (comm_->size() > 1 && config_.sync_barrier) {
    ScopedTimer timer(times_.synchronize);
    comm_->barrier();
  }
  ScopedTimer timer(times_.communicate);
  exchange_->exchange(local, origin_, spike_buffer_);
  std::sort(spike_buffer_.begin(), spike_buffer_.end());
}

void Kernel::simulate(int64_t steps) {
  if (steps < 0) throw std::invalid_argument("simulation time must be >= 0");
  prepare();
  ScopedTimer timer(times_.simulate);
  const int64_t end = step() + steps;
  cycle_error_ = nullptr;
#pragma omp parallel num_threads(int(threads_.size()))
  {
    const int t = omp_get_thread_num();
    ThreadState& ts = threads_[size_t(t)];
    SliceContext ctx(*this, ts);
    Stopwatch* phase = nullptr;
    auto mark = [&](Stopwatch* next) {  // the master thread times each phase barrier to barrier
      if (t != 0) return;
      if (phase) phase->stop();
      phase = next;
      if (phase) phase->start();
    };
    while (step() < end && !cycle_error_) {
      const int from = lag_;
      const int to = int(std::min<int64_t>(min_delay_, from + (end - step())));
      if (from == 0) {
        if (t == 0) cycle_clock_.start();
        mark(&times_.deliver);
        deliver(ts);
        deliver_stimuli(ts);
#pragma omp barrier
      }
      mark(&times_.update);
      ctx.origin = origin_;
      ctx.from = from;
      ctx.to = to;
      for (NeuronGroup& g : ts.groups) g.model->update(g, ctx);
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
          }
        } catch (...) {
          cycle_error_ = std::current_exception();
        }
      }
#pragma omp barrier
    }
  }
  if (cycle_error_) std::rethrow_exception(cycle_error_);
  collect_events();
}

}  // namespace ranvier
