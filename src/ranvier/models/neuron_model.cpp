#include "models/neuron_model.hpp"

namespace ranvier {

int NeuronModel::index_of(const std::string& var) const {
  const auto& vars = variables();
  for (size_t k = 0; k < vars.size(); ++k)
    if (vars[k].name == var) return int(k);
  return -1;
}

int NeuronModel::list_index_of(const std::string& var) const {
  const auto& lists = list_variables();
  for (size_t k = 0; k < lists.size(); ++k)
    if (lists[k].name == var) return int(k);
  return -1;
}

}  // namespace ranvier
