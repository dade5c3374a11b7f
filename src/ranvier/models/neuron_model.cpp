#include "models/neuron_model.hpp"

#include "core/errors.hpp"

namespace ranvier {

int NeuronModel::index_of(const std::string& var) const {
  const auto& vars = variables();
  for (size_t k = 0; k < vars.size(); ++k)
    if (vars[k].name == var) return int(k);
  return -1;
}

void NeuronModel::validate_traces(const NeuronGroup& g, size_t i) const {
  const int k = index_of("tau_minus_triplet");
  if (k >= 0 && !(g.vars[size_t(k)][i] > 0)) throw bad_value("tau_minus_triplet", g.vars[size_t(k)][i], "> 0");
}

std::optional<std::vector<std::string>> NeuronModel::recordables() const {
  std::vector<std::string> names;
  for (const Variable& v : variables()) names.push_back(v.name);
  return names;
}

const std::vector<ListParameter>& NeuronModel::list_parameters() const {
  static const std::vector<ListParameter> none;
  return none;
}

uint32_t NeuronModel::port(const CellKind* kind, uint32_t receptor, bool current) const {
  if (current && !takes_currents())
    throw IllegalConnectionError(std::string(name()) + " takes spikes only, no currents");
  if (!kind && receptor != 0)
    throw bad_value("receptor_type", receptor, "0 for " + std::string(name()) + " (it has one input port)");
  return receptor;
}

void NeuronModel::attach(NeuronGroup&, const std::shared_ptr<const CellKind>& kind, uint32_t) const {
  if (kind) throw BadParameterError(std::string(name()) + " is a point neuron: it takes no cell description");
}

int32_t NeuronModel::site(const CellKind*, const CellLocation&) const {
  throw BadParameterError("location: " + std::string(name()) + " is a point neuron and has no locations");
}

int NeuronModel::list_index_of(const std::string& var) const {
  const auto& lists = list_variables();
  for (size_t k = 0; k < lists.size(); ++k)
    if (lists[k].name == var) return int(k);
  return -1;
}

}  // namespace ranvier
