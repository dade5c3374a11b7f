#include "kernel/rate_coupling.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace ranvier {

void RateCoupling::prepare(std::vector<ThreadState>& threads, const std::vector<SynapseModel>& models,
                           Communicator& comm, int min_delay, bool use_wfr) {
  models_.clear();
  for (const SynapseModel& m : models) models_.push_back(&m);
  std::vector<int64_t> kinds{0, 0};  // any delayed, any instantaneous rate connection (on any rank)
  for (const ThreadState& ts : threads)
    for (size_t syn = 0; syn < models.size(); ++syn) {
      const RateEvent kind = models[syn].base->rates;
      if (kind == RateEvent::none || ts.tables[syn].size() + ts.long_tables[syn].size() == 0) continue;
      kinds[kind == RateEvent::delayed ? 0 : 1] = 1;
    }
  comm.allreduce(kinds, ReduceOp::max);
  active_ = kinds[0] || kinds[1];
  relaxes_ = use_wfr && kinds[1];
  steps_ = min_delay;
  groups_.assign(threads.size(), {});
  targets_.assign(threads.size(), {});
  thread_settled_.assign(threads.size(), 1);
  for (size_t t = 0; t < threads.size(); ++t) {
    for (NeuronGroup& g : threads[t].groups) {
      if (!g.model->rate_model()) continue;
      static_cast<RateBuffers&>(*g.state).shape(size_t(min_delay), g.size());
      groups_[t].push_back(&g);
      if (!active_) continue;
      targets_[t].resize(threads[t].n_inputs());
      for (size_t i = 0; i < g.size(); ++i) targets_[t][g.input(i)] = {&g, uint32_t(i)};
    }
  }
}

RateCoupling::Rates RateCoupling::gather_local(bool held) const {
  Rates rates;
  rates.width = size_t(steps_) + (held ? 1 : 0);
  for (const auto& groups : groups_)
    for (NeuronGroup* g : groups) {
      RateBuffers& b = RateModel::buffers(*g);
      for (size_t i = 0; i < g->size(); ++i) {
        rates.gids.push_back(g->gids[i]);
        for (int lag = 0; lag < steps_; ++lag) rates.values.push_back(b.at(b.sent, lag, i));
        if (held) rates.values.push_back(g->model->rate_model()->held(*g, i));
      }
    }
  return rates;
}

// Every rank's rates, each rank's as (gid, values) records, then all sorted by gid.
void RateCoupling::gather_ranks(Rates& rates, Communicator& comm) {
  const size_t record = sizeof(uint32_t) + rates.width * sizeof(double);
  if (comm.size() > 1) {
    std::vector<uint8_t> mine(rates.gids.size() * record);
    for (size_t k = 0; k < rates.gids.size(); ++k) {
      std::memcpy(&mine[k * record], &rates.gids[k], sizeof(uint32_t));
      std::memcpy(&mine[k * record + sizeof(uint32_t)], &rates.values[k * rates.width], rates.width * sizeof(double));
    }
    std::vector<size_t> counts;
    const std::vector<uint8_t> all = comm.allgatherv(mine, counts);
    const size_t n = all.size() / record;
    rates.gids.resize(n);
    rates.values.resize(n * rates.width);
    for (size_t k = 0; k < n; ++k) {
      std::memcpy(&rates.gids[k], &all[k * record], sizeof(uint32_t));
      std::memcpy(&rates.values[k * rates.width], &all[k * record + sizeof(uint32_t)], rates.width * sizeof(double));
    }
  }
  std::vector<size_t> order(rates.gids.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rates.gids[a] < rates.gids[b]; });
  Rates sorted;
  sorted.width = rates.width;
  for (size_t k : order) {
    sorted.gids.push_back(rates.gids[k]);
    const double* v = &rates.values[k * rates.width];
    sorted.values.insert(sorted.values.end(), v, v + rates.width);
  }
  rates = std::move(sorted);
}

void RateCoupling::end_cycle(Communicator& comm) {
  cycle_ = gather_local(true);
  gather_ranks(cycle_, comm);
}

// Calls add(target, weight, delay steps, the source's values) for every rate connection of
// the kind on the thread, sources in ascending order, each source's run in table order.
template <class Add>
void RateCoupling::each_connection(ThreadState& ts, int thread, RateEvent kind, const Rates& rates, Add add) const {
  for (size_t syn = 0; syn < models_.size(); ++syn) {
    if (models_[syn]->base->rates != kind) continue;
    for (const ConnectionTable* table : {&ts.tables[syn], &ts.long_tables[syn]}) {
      if (table->size() == 0) continue;
      size_t hint = 0;
      for (size_t m = 0; m < rates.gids.size(); ++m) {
        hint = table->seek(rates.gids[m], hint);
        if (hint == table->sources().size()) break;
        if (table->sources()[hint] != rates.gids[m]) continue;
        const SourceRange run = table->range_at(hint);
        for (size_t k = run.begin; k < run.end; ++k) {
          const Target& target = targets_[size_t(thread)][table->targets()[k]];
          add(target, table->targets()[k], table->weights().at(hint, k), table->delays().at(hint, k),
              &rates.values[m * rates.width]);
        }
      }
    }
  }
}

void RateCoupling::deliver(ThreadState& ts, int thread, int64_t origin) {
  // the cycle the rates are of may have been longer or shorter (new connections between runs)
  const int sent_steps = int(cycle_.width) - 1;
  const int64_t sent_from = origin - sent_steps;
  each_connection(ts, thread, RateEvent::delayed, cycle_,
                  [&](const Target& to, uint32_t column, double w, uint16_t delay, const double* rates) {
                    const RateModel& model = *to.group->model->rate_model();
                    const double sign = model.one_sign() ? 1.0 : w;
                    for (int lag = 0; lag < sent_steps; ++lag) {
                      const size_t slot = ts.input.slot(sent_from + lag + delay);
                      ts.input.add_signed(slot, column, sign, model.coupled(*to.group, to.neuron, w, rates[lag]),
                                          false);
                    }
                  });
  add_instant(ts, thread, cycle_, false);
}

void RateCoupling::add_instant(ThreadState& ts, int thread, const Rates& rates, bool per_step) {
  for (NeuronGroup* g : groups_[size_t(thread)]) {
    RateBuffers& b = RateModel::buffers(*g);
    std::fill(b.instant_ex.begin(), b.instant_ex.end(), 0.0);
    std::fill(b.instant_in.begin(), b.instant_in.end(), 0.0);
  }
  each_connection(
      ts, thread, RateEvent::instantaneous, rates,
      [&](const Target& to, uint32_t, double w, uint16_t, const double* values) {
        const RateModel& model = *to.group->model->rate_model();
        RateBuffers& b = RateModel::buffers(*to.group);
        std::vector<double>& into = model.one_sign() || w >= 0.0 ? b.instant_ex : b.instant_in;
        const double held = per_step ? 0.0 : model.coupled(*to.group, to.neuron, w, values[rates.width - 1]);
        for (int lag = 0; lag < steps_; ++lag)
          b.at(into, lag, to.neuron) += per_step ? model.coupled(*to.group, to.neuron, w, values[lag]) : held;
      });
}

void RateCoupling::relax(int thread, UpdateContext& ctx, double tol) {
  bool settled = true;
  for (NeuronGroup* g : groups_[size_t(thread)]) settled = g->model->rate_model()->relax(*g, ctx, tol) && settled;
  thread_settled_[size_t(thread)] = settled;
}

void RateCoupling::end_pass(Communicator& comm) {
  pass_ = gather_local(false);
  gather_ranks(pass_, comm);
  std::vector<int64_t> all{std::all_of(thread_settled_.begin(), thread_settled_.end(), [](uint8_t s) { return s; })};
  if (comm.size() > 1) comm.allreduce(all, ReduceOp::min);
  settled_ = all[0] != 0;
}

void RateCoupling::deliver_pass(ThreadState& ts, int thread) { add_instant(ts, thread, pass_, true); }

}  // namespace ranvier
