// e-prop, Clopath and Urbanczik synapses reach into their targets' histories
// (models/eprop_model.hpp, models/post_history.hpp), NESTML synapses into their paired neurons'
// parameters: before a run each thread learns which neuron owns each input column, and each
// such neuron how many such synapses it has (without any it keeps no history, as in NEST) and,
// for e-prop's _bsshslm_2020 variant, the first updates of its new ones.
#include "kernel/kernel.hpp"
#include "models/eprop_model.hpp"
#include "models/post_history.hpp"

namespace ranvier {

void Kernel::prepare_synapse_targets(ThreadState& ts) {
  ts.input_owners.clear();
  for (NeuronGroup& g : ts.groups)
    if (g.model->eprop_model())
      for (size_t i = 0; i < g.size(); ++i) EpropModel::archive(g, i).indegree = 0;
    else if (g.model->post_history() != PostHistory::none) {
      auto& state = static_cast<PostHistoryState&>(*g.state);
      state.incoming.assign(g.size(), 0);
      state.keep = history_steps();  // values looked up by step are read as far back as K- values
    }
  bool any = false;
  for (auto* tables : {&ts.tables, &ts.long_tables})
    for (size_t syn = 0; syn < tables->size(); ++syn) {
      const SynapseBase& base = *network_.synapse_models()[syn].base;
      any = any || ((base.eprop != Eprop::none || base.paired_neuron || base.post_history != PostHistory::none) &&
                    (*tables)[syn].size());
    }
  if (!any) return;
  ts.input_owners.resize(ts.n_inputs());
  for (NeuronGroup& g : ts.groups)
    for (uint32_t port = 0; port < g.ports; ++port)
      for (size_t i = 0; i < g.size(); ++i) ts.input_owners[g.input(i, port)] = {&g, uint32_t(i)};
  for (auto* tables : {&ts.tables, &ts.long_tables})
    for (size_t syn = 0; syn < tables->size(); ++syn) {
      const SynapseBase& base = *network_.synapse_models()[syn].base;
      if (base.eprop == Eprop::none && base.post_history == PostHistory::none) continue;
      const ConnectionTable& table = (*tables)[syn];
      for (size_t k = 0; k < table.size(); ++k) {
        const InputOwner& owner = ts.input_owners[table.targets()[k]];
        if (base.post_history != PostHistory::none)
          ++static_cast<PostHistoryState&>(*owner.group->state).incoming[owner.neuron];
        else
          ++EpropModel::archive(*owner.group, owner.neuron).indegree;
      }
    }
  // A new _bsshslm_2020 synapse marks its first update in its target (NEST, at Connect).
  for (NeuronGroup& g : ts.groups) {
    const EpropModel* model = g.model->eprop_model();
    if (!model || model->variant() != Eprop::bsshslm_2020) continue;
    for (size_t i = 0; i < g.size(); ++i) {
      EpropArchive& a = EpropModel::archive(g, i);
      if (a.indegree > a.registered) a.mark_first_updates(model->shift(), a.indegree - a.registered);
      a.registered = a.indegree;
    }
  }
}

}  // namespace ranvier
