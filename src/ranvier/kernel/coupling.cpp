#include "kernel/coupling.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "models/eprop_model.hpp"

namespace ranvier {

void Coupling::prepare(std::vector<ThreadState>& threads, const std::vector<SynapseModel>& models, Communicator& comm,
                       int min_delay, bool use_wfr, int interpolation_order) {
  models_.clear();
  for (const SynapseModel& m : models) models_.push_back(&m);
  // whether any rank has connections of each kind, and the most values per step any coupled
  // neuron sends (the stride of every rank's values)
  const size_t widest = size_t(SecondaryEvent::slow_inward_current) + 1;
  std::vector<int64_t> kinds(widest + 1, 0);
  for (const ThreadState& ts : threads) {
    for (size_t syn = 0; syn < models.size(); ++syn)
      if (ts.tables[syn].size() + ts.long_tables[syn].size()) kinds[size_t(models[syn].base->secondary)] = 1;
    for (const NeuronGroup& g : ts.groups)
      if (const CoupledModel* model = g.model->coupled_model())
        kinds[widest] = std::max(kinds[widest], int64_t(model->values_per_step(interpolation_order)));
  }
  comm.allreduce(kinds, ReduceOp::max);
  const bool gaps = kinds[size_t(SecondaryEvent::gap_junction)] != 0;
  const bool instant = kinds[size_t(SecondaryEvent::instantaneous_rate)] || kinds[size_t(SecondaryEvent::diffusion)];
  active_ = kinds[size_t(SecondaryEvent::delayed_rate)] || kinds[size_t(SecondaryEvent::learning_signal)] ||
            kinds[size_t(SecondaryEvent::slow_inward_current)] || instant || gaps;
  relaxes_ = use_wfr && (instant || gaps);
  steps_ = min_delay;
  stride_ = size_t(std::max<int64_t>(kinds[widest], 1));
  groups_.assign(threads.size(), {});
  targets_.assign(threads.size(), {});
  thread_settled_.assign(threads.size(), 1);
  for (size_t t = 0; t < threads.size(); ++t) {
    if (active_) targets_[t].resize(threads[t].n_inputs());
    for (NeuronGroup& g : threads[t].groups) {
      const CoupledModel* model = g.model->coupled_model();
      if (!model) continue;
      CoupledModel::buffers(g).shape(size_t(min_delay), g.size(), model->values_per_step(interpolation_order));
      groups_[t].push_back(&g);
      if (!active_ || g.ports == 0) continue;  // a source only (step_rate_generator)
      for (uint32_t port = 0; port < g.ports; ++port)
        for (size_t i = 0; i < g.size(); ++i) targets_[t][g.input(i, port)] = {&g, uint32_t(i)};
    }
  }
}

// This rank's values: per source the steps' values in rows of stride_ (rates fill the first of
// each), then the held value if asked.
Coupling::Values Coupling::gather_local(bool held) const {
  Values out;
  out.stride = stride_;
  out.width = size_t(steps_) * stride_ + (held ? 1 : 0);
  for (const auto& groups : groups_)
    for (NeuronGroup* g : groups) {
      if (!g->model->coupled_model()->sends_values()) continue;
      CouplingBuffers& b = CoupledModel::buffers(*g);
      for (size_t i = 0; i < g->size(); ++i) {
        out.gids.push_back(g->gids[i]);
        const size_t first = out.values.size();
        out.values.resize(first + out.width, 0.0);
        const double* sent = b.sent.of(i);
        for (size_t row = 0; row < b.steps * b.per_step; ++row)
          out.values[first + row / b.per_step * stride_ + row % b.per_step] = sent[row];
        if (held) out.values.back() = g->model->coupled_model()->held(*g, i);
      }
    }
  return out;
}

// Every rank's values, each rank's as (gid, values) records, then all sorted by gid.
void Coupling::gather_ranks(Values& v, Communicator& comm) {
  const size_t record = sizeof(uint32_t) + v.width * sizeof(double);
  if (comm.size() > 1) {
    std::vector<uint8_t> mine(v.gids.size() * record);
    for (size_t k = 0; k < v.gids.size(); ++k) {
      std::memcpy(&mine[k * record], &v.gids[k], sizeof(uint32_t));
      std::memcpy(&mine[k * record + sizeof(uint32_t)], &v.values[k * v.width], v.width * sizeof(double));
    }
    std::vector<size_t> counts;
    const std::vector<uint8_t> all = comm.allgatherv(mine, counts);
    const size_t n = all.size() / record;
    v.gids.resize(n);
    v.values.resize(n * v.width);
    for (size_t k = 0; k < n; ++k) {
      std::memcpy(&v.gids[k], &all[k * record], sizeof(uint32_t));
      std::memcpy(&v.values[k * v.width], &all[k * record + sizeof(uint32_t)], v.width * sizeof(double));
    }
  }
  std::vector<size_t> order(v.gids.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v.gids[a] < v.gids[b]; });
  Values sorted;
  sorted.width = v.width, sorted.stride = v.stride;
  for (size_t k : order) {
    sorted.gids.push_back(v.gids[k]);
    const double* values = &v.values[k * v.width];
    sorted.values.insert(sorted.values.end(), values, values + v.width);
  }
  v = std::move(sorted);
}

void Coupling::end_cycle(Communicator& comm) {
  cycle_ = gather_local(true);
  gather_ranks(cycle_, comm);
}

// Calls add(target, its input column, the record, weight, delay steps, the source's values) for
// every connection of the kind on the thread, sources in ascending order, each source's run in
// table order.
template <class Add>
void Coupling::each_connection(ThreadState& ts, int thread, SecondaryEvent kind, const Values& values, Add add) const {
  for (size_t syn = 0; syn < models_.size(); ++syn) {
    if (models_[syn]->base->secondary != kind) continue;
    for (const ConnectionTable* table : {&ts.tables[syn], &ts.long_tables[syn]}) {
      if (table->size() == 0) continue;
      size_t hint = 0;
      for (size_t m = 0; m < values.gids.size(); ++m) {
        hint = table->seek(values.gids[m], hint);
        if (hint == table->sources().size()) break;
        if (table->sources()[hint] != values.gids[m]) continue;
        const SourceRange run = table->range_at(hint);
        for (size_t k = run.begin; k < run.end; ++k) {
          const double* record = table->records().width() ? table->records().at(hint, k) : nullptr;
          const uint32_t column = table->targets()[k];
          add(targets_[size_t(thread)][column], column, record, table->weights().at(hint, k),
              table->delays().at(hint, k), &values.values[m * values.width]);
        }
      }
    }
  }
}

void Coupling::deliver(ThreadState& ts, int thread, int64_t origin) {
  // the cycle the values are of may have been longer or shorter (new connections between runs)
  const int sent_steps = int((cycle_.width - 1) / cycle_.stride);
  const int64_t sent_from = origin - sent_steps;
  each_connection(ts, thread, SecondaryEvent::delayed_rate, cycle_,
                  [&](const Target& to, uint32_t column, const double*, double w, uint16_t delay, const double* rates) {
                    const CoupledModel& model = *to.group->model->coupled_model();
                    const double sign = model.one_sign() ? 1.0 : w;
                    for (int lag = 0; lag < sent_steps; ++lag) {
                      const size_t slot = ts.input.slot(sent_from + lag + delay);
                      const double value = model.coupled(*to.group, to.neuron, w, rates[size_t(lag) * cycle_.stride]);
                      ts.input.add_signed(slot, column, sign, value, false);
                    }
                  });
  // A readout's error signal of each step, times the weight, is a learning signal of its targets.
  each_connection(ts, thread, SecondaryEvent::learning_signal, cycle_,
                  [&](const Target& to, uint32_t, const double*, double w, uint16_t, const double* errors) {
                    const EpropModel& model = *to.group->model->eprop_model();
                    for (int lag = 0; lag < sent_steps; ++lag)
                      model.learn(*to.group, to.neuron, sent_from + lag,
                                  w * errors[size_t(lag) * cycle_.stride + learning_value]);
                  });
  // An astrocyte's slow inward current, times the weight, into the current of the target's SIC
  // port in the step it arrives in (NEST's SICEvent).
  each_connection(ts, thread, SecondaryEvent::slow_inward_current, cycle_,
                  [&](const Target& to, uint32_t, const double*, double w, uint16_t delay, const double* currents) {
                    const uint32_t column = to.group->input(
                        to.neuron, to.group->model->coupled_model()->port_of(SecondaryEvent::slow_inward_current));
                    for (int lag = 0; lag < sent_steps; ++lag)
                      ts.input.add_current(sent_from + lag + delay, column, w * currents[size_t(lag) * cycle_.stride]);
                  });
  add_instant(ts, thread, cycle_, false);
}

void Coupling::add_instant(ThreadState& ts, int thread, const Values& values, bool per_step) {
  for (NeuronGroup* g : groups_[size_t(thread)]) {
    CouplingBuffers& b = CoupledModel::buffers(*g);
    b.instant_ex.clear();
    b.instant_in.clear();
    std::fill(b.conductance.begin(), b.conductance.end(), 0.0);
  }
  const size_t held_at = values.width - 1;
  each_connection(ts, thread, SecondaryEvent::instantaneous_rate, values,
                  [&](const Target& to, uint32_t, const double*, double w, uint16_t, const double* rates) {
                    const CoupledModel& model = *to.group->model->coupled_model();
                    CouplingBuffers& b = CoupledModel::buffers(*to.group);
                    double* into = (model.one_sign() || w >= 0.0 ? b.instant_ex : b.instant_in).of(to.neuron);
                    const double held = per_step ? 0.0 : model.coupled(*to.group, to.neuron, w, rates[held_at]);
                    for (int lag = 0; lag < steps_; ++lag) {
                      const double rate = rates[size_t(lag) * values.stride];
                      into[lag] += per_step ? model.coupled(*to.group, to.neuron, w, rate) : held;
                    }
                  });
  // A diffusion connection adds drift_factor times the rate to the mean of the target's input
  // and diffusion_factor times it to the variance (the first two of its record).
  each_connection(ts, thread, SecondaryEvent::diffusion, values,
                  [&](const Target& to, uint32_t, const double* factors, double, uint16_t, const double* rates) {
                    CouplingBuffers& b = CoupledModel::buffers(*to.group);
                    double *drift = b.instant_ex.of(to.neuron), *diffusion = b.instant_in.of(to.neuron);
                    for (size_t lag = 0; lag < size_t(steps_); ++lag) {
                      const double rate = per_step ? rates[lag * values.stride] : rates[held_at];
                      drift[lag] += factors[0] * rate;
                      diffusion[lag] += factors[1] * rate;
                    }
                  });
  // A junction of conductance w adds w times the partner's interpolation coefficients (its held
  // potential, constant over the step, before relaxation) and w to the summed conductance.
  each_connection(ts, thread, SecondaryEvent::gap_junction, values,
                  [&](const Target& to, uint32_t, const double*, double w, uint16_t, const double* potentials) {
                    CouplingBuffers& b = CoupledModel::buffers(*to.group);
                    b.conductance[to.neuron] += w;
                    double* into = b.instant_ex.of(to.neuron);
                    for (size_t lag = 0; lag < size_t(steps_); ++lag) {
                      if (!per_step) {  // a held potential: constant, its higher coefficients 0
                        into[lag * b.per_step] += w * potentials[held_at];
                        continue;
                      }
                      for (size_t k = 0; k < b.per_step; ++k)
                        into[lag * b.per_step + k] += w * potentials[lag * values.stride + k];
                    }
                  });
}

void Coupling::relax(int thread, UpdateContext& ctx, double tol) {
  bool settled = true;
  for (NeuronGroup* g : groups_[size_t(thread)]) settled = g->model->coupled_model()->relax(*g, ctx, tol) && settled;
  thread_settled_[size_t(thread)] = settled;
}

void Coupling::end_pass(Communicator& comm) {
  ++passes_;
  pass_ = gather_local(false);
  gather_ranks(pass_, comm);
  std::vector<int64_t> all{std::all_of(thread_settled_.begin(), thread_settled_.end(), [](uint8_t s) { return s; })};
  if (comm.size() > 1) comm.allreduce(all, ReduceOp::min);
  settled_ = all[0] != 0;
}

void Coupling::deliver_pass(ThreadState& ts, int thread) { add_instant(ts, thread, pass_, true); }

}  // namespace ranvier
