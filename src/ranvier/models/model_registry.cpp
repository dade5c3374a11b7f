#include <stdexcept>

#include "models/neuron_model.hpp"

namespace ranvier {

const NeuronModel& iaf_psc_alpha_model();
const NeuronModel& iaf_psc_exp_model();
const NeuronModel& parrot_neuron_model();
const NeuronModel& ignore_and_fire_model();
const NeuronModel& artificial_spiking_cell_model();
const NeuronModel& iaf_psc_delta_model();
const NeuronModel& iaf_cond_exp_model();
const NeuronModel& iaf_cond_alpha_model();
const NeuronModel& aeif_cond_exp_model();
const NeuronModel& aeif_cond_alpha_model();
const NeuronModel& hh_psc_alpha_model();
const NeuronModel& hh_cond_exp_traub_model();
const NeuronModel& izhikevich_model();
const NeuronModel& mat2_psc_exp_model();

namespace {
const std::vector<const NeuronModel*>& all_models() {
  static const std::vector<const NeuronModel*> models = {
      &iaf_psc_alpha_model(), &iaf_psc_exp_model(), &parrot_neuron_model(),
      &ignore_and_fire_model(), &artificial_spiking_cell_model(),
      &iaf_psc_delta_model(),
      &iaf_cond_exp_model(),
      &iaf_cond_alpha_model(),
      &aeif_cond_exp_model(),
      &aeif_cond_alpha_model(),
      &hh_psc_alpha_model(),
      &hh_cond_exp_traub_model(),
      &izhikevich_model(),
      &mat2_psc_exp_model()};
  return models;
}
}  // namespace

int NeuronModel::index_of(const std::string& var) const {
  const auto& vars = variables();
  for (size_t k = 0; k < vars.size(); ++k)
    if (vars[k].name == var) return int(k);
  return -1;
}

const NeuronModel* find_neuron_model(const std::string& name) {
  for (const NeuronModel* m : all_models())
    if (name == m->name()) return m;
  return nullptr;
}

std::vector<std::string> neuron_model_names() {
  std::vector<std::string> names;
  for (const NeuronModel* m : all_models()) names.emplace_back(m->name());
  return names;
}

}  // namespace ranvier
