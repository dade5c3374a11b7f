#include "models/neuron_model.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "models/synaptic_elements.hpp"

namespace ranvier {

const std::vector<Variable>& NeuronModel::variables() const {
  std::call_once(variables_once_, [this] {
    variables_ = own_variables();
    if (archives_spikes()) variables_.insert(variables_.end(), calcium_variables().begin(), calcium_variables().end());
  });
  return variables_;
}

bool NeuronModel::archives_spikes() const {
  const auto& own = own_variables();
  return std::any_of(own.begin(), own.end(), [](const Variable& v) { return v.name == "tau_minus"; });
}

int NeuronModel::index_of(const std::string& var) const {
  const auto& vars = variables();
  for (size_t k = 0; k < vars.size(); ++k)
    if (vars[k].name == var) return int(k);
  return -1;
}

void NeuronModel::validate_traces(const NeuronGroup& g, size_t i) const {
  const int k = index_of("tau_minus_triplet");
  if (k >= 0 && !(g.vars[size_t(k)][i] > 0)) throw bad_value("tau_minus_triplet", g.vars[size_t(k)][i], "> 0");
  const int ca = calcium_index();
  if (ca < 0) return;
  if (!(g.vars[size_t(ca)][i] >= 0)) throw bad_value("Ca", g.vars[size_t(ca)][i], ">= 0 (a concentration)");
  if (!(g.vars[size_t(ca) + 1][i] > 0)) throw bad_value("tau_Ca", g.vars[size_t(ca) + 1][i], "> 0");
  if (!(g.vars[size_t(ca) + 2][i] > 0))
    throw bad_value("beta_Ca", g.vars[size_t(ca) + 2][i], "> 0 (the calcium integrates the spikes)");
}

std::optional<std::vector<std::string>> NeuronModel::recordables() const {
  std::vector<std::string> names;
  for (const Variable& v : own_variables())
    if (!v.hidden) names.push_back(v.name);
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

std::shared_ptr<const CellKind> NeuronModel::default_kind() const {
  if (list_parameters().empty()) return nullptr;
  auto kind = std::make_shared<ListKind>();
  for (const ListParameter& p : list_parameters()) kind->lists[p.name] = p.default_value;
  return kind;
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
