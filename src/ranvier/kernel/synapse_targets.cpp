// e-prop and clopath synapses reach into their targets' histories (models/eprop_model.hpp,
// models/clopath_archive.hpp), NESTML synapses into their paired neurons' parameters: before a
// run each thread learns which neuron owns each input column, and each e-prop or Clopath neuron
// how many such synapses it has (without any it keeps no history, as in NEST) and, for the
// _bsshslm_2020 variant, the first updates of its new ones.
#include "kernel/kernel.hpp"
#include "models/clopath_archive.hpp"
#include "models/eprop_model.hpp"

namespace ranvier {

void Kernel::prepare_synapse_targets(ThreadState& ts) {
  ts.input_owners.clear();
  for (NeuronGroup& g : ts.groups)
    if (g.model->eprop_model())
      for (size_t i = 0; i < g.size(); ++i) EpropModel::archive(g, i).indegree = 0;
    else if (g.model->clopath_model())
      for (size_t i = 0; i < g.size(); ++i)  // depression values are read as far back as K- values
        ClopathModel::history(g, i).incoming = 0, ClopathModel::history(g, i).keep = history_steps();
  bool any = false;
  for (auto* tables : {&ts.tables, &ts.long_tables})
    for (size_t syn = 0; syn < tables->size(); ++syn) {
      const SynapseBase& base = *network_.synapse_models()[syn].base;
      any = any || ((base.eprop != Eprop::none || base.paired_neuron || base.clopath) && (*tables)[syn].size());
    }
  if (!any) return;
  ts.input_owners.resize(ts.n_inputs());
  for (NeuronGroup& g : ts.groups)
    for (uint32_t port = 0; port < g.ports; ++port)
      for (size_t i = 0; i < g.size(); ++i) ts.input_owners[g.input(i, port)] = {&g, uint32_t(i)};
  for (auto* tables : {&ts.tables, &ts.long_tables})
    for (size_t syn = 0; syn < tables->size(); ++syn) {
      const SynapseBase& base = *network_.synapse_models()[syn].base;
      if (base.eprop == Eprop::none && !base.clopath) continue;
      const ConnectionTable& table = (*tables)[syn];
      for (size_t k = 0; k < table.size(); ++k) {
        const InputOwner& owner = ts.input_owners[table.targets()[k]];
        if (base.clopath)
          ++ClopathModel::history(*owner.group, owner.neuron).incoming;
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
