#include "models/cm_tree.hpp"

#include "core/errors.hpp"

namespace ranvier {

namespace {

// NEST's UnknownCompartment message: "Compartment <i> <what>."
BadParameterError unknown_compartment(int64_t index, const std::string& what) {
  return BadParameterError("Compartment " + std::to_string(index) + " " + what + ".");
}

// Takes each of `names` that params has into its field; any other key is an error, as NEST's
// UnaccessedDictionaryEntry.
void read(const std::map<std::string, double>& params, const std::map<std::string, double*>& names,
          const std::string& what) {
  for (const auto& [key, value] : params) {
    const auto field = names.find(key);
    if (field == names.end()) throw UnknownParameterError(what + " has no parameter " + key + " (unread entry)");
    *field->second = value;
  }
}

}  // namespace

namespace {

// A compartment's and a receptor's parameters by NEST's names (a receptor's those of its type).
std::map<std::string, double*> fields(CmCompartment& c) {
  return {{"C_m", &c.C_m},         {"g_C", &c.g_C},   {"g_L", &c.g_L},       {"e_L", &c.e_L}, {"v_comp", &c.v_comp},
          {"gbar_Na", &c.gbar_Na}, {"e_Na", &c.e_Na}, {"gbar_K", &c.gbar_K}, {"e_K", &c.e_K}};
}
std::map<std::string, double*> fields(CmReceptor& r) {
  const std::string type = CmKind::type_name(r.type);
  if (r.type == CmReceptorType::AMPA_NMDA)
    return {{"e_AMPA_NMDA", &r.e_rev},   {"tau_r_AMPA", &r.tau_r[0]}, {"tau_d_AMPA", &r.tau_d[0]},
            {"tau_r_NMDA", &r.tau_r[1]}, {"tau_d_NMDA", &r.tau_d[1]}, {"NMDA_ratio", &r.NMDA_ratio}};
  return {{"e_" + type, &r.e_rev}, {"tau_r_" + type, &r.tau_r[0]}, {"tau_d_" + type, &r.tau_d[0]}};
}
template <typename T>
std::map<std::string, double> values(T element) {
  std::map<std::string, double> out;
  for (const auto& [name, field] : fields(element)) out[name] = *field;
  return out;
}

}  // namespace

void CmKind::add_compartment(int64_t parent, const std::map<std::string, double>& params) {
  if (parent < 0 && !compartments.empty()) throw unknown_compartment(0, ", the root, has already been instantiated");
  if (parent >= 0 && parent >= int64_t(compartments.size()))
    throw unknown_compartment(parent, "does not exist in tree, but was specified as a parent compartment");
  CmCompartment c;
  c.parent = parent < 0 ? -1 : int32_t(parent);
  read(params, fields(c), "a compartment of cm_default");
  if (!(c.C_m > 0)) throw bad_value("C_m", c.C_m, "> 0 (a compartment's capacitance)");
  compartments.push_back(c);
}

void CmKind::add_receptor(int64_t compartment, const std::string& type, const std::map<std::string, double>& params) {
  if (compartment < 0 || compartment >= int64_t(compartments.size()))
    throw unknown_compartment(compartment, "does not exist in tree");
  CmReceptor r;  // AMPA's defaults
  r.compartment = uint32_t(compartment);
  if (type == "GABA") {
    r.type = CmReceptorType::GABA, r.e_rev = -80.0, r.tau_d[0] = 10.0;
  } else if (type == "NMDA") {
    r.type = CmReceptorType::NMDA, r.tau_d[0] = 43.0;
  } else if (type == "AMPA_NMDA") {
    r.type = CmReceptorType::AMPA_NMDA;
  } else if (type != "AMPA") {
    throw bad_value("receptor_type", type, "AMPA, GABA, NMDA or AMPA_NMDA (cm_default's receptors)");
  }
  read(params, fields(r), "a " + type + " receptor of cm_default");
  for (int k = 0; k < r.conductances(); ++k)
    if (!(r.tau_r[k] > 0 && r.tau_d[k] > r.tau_r[k]))
      throw bad_value("tau_d", r.tau_d[k],
                      "> tau_r > 0 (" + type + "'s decay after its rise), with tau_r = " + std::to_string(r.tau_r[k]));
  receptors.push_back(r);
}

std::map<std::string, double> CmKind::parameters(const CmCompartment& c) { return values(c); }
std::map<std::string, double> CmKind::parameters(const CmReceptor& r) { return values(r); }

const char* CmKind::type_name(CmReceptorType t) {
  static const char* const names[] = {"AMPA", "GABA", "NMDA", "AMPA_NMDA"};
  return names[size_t(t)];
}

namespace {
const char* const compartment_variables[] = {"v_comp", "m_Na_", "h_Na_", "n_K_"};
std::vector<std::string> conductance_names(CmReceptorType t) {
  if (t == CmReceptorType::AMPA_NMDA) return {"g_r_AN_AMPA_", "g_d_AN_AMPA_", "g_r_AN_NMDA_", "g_d_AN_NMDA_"};
  const std::string type = CmKind::type_name(t);
  return {"g_r_" + type + "_", "g_d_" + type + "_"};
}
}  // namespace

std::vector<std::string> CmKind::recordables() const {
  std::vector<std::string> out;
  for (size_t c = 0; c < compartments.size(); ++c)
    for (const char* v : compartment_variables) out.push_back(v + std::to_string(c));
  for (size_t r = 0; r < receptors.size(); ++r)
    for (const std::string& g : conductance_names(receptors[r].type)) out.push_back(g + std::to_string(r));
  return out;
}

int CmKind::recordable(const std::string& name) const {
  for (size_t c = 0; c < compartments.size(); ++c)
    for (int j = 0; j < 4; ++j)
      if (name == compartment_variables[j] + std::to_string(c)) return 2 * (4 * int(c) + j);
  for (size_t r = 0; r < receptors.size(); ++r) {
    const std::vector<std::string> names = conductance_names(receptors[r].type);
    for (size_t j = 0; j < names.size(); ++j)
      if (name == names[j] + std::to_string(r)) return 2 * (4 * int(r) + int(j)) + 1;
  }
  return -1;
}

}  // namespace ranvier
