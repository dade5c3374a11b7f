// The structure of NEST's compartmental model cm_default: a tree of passive compartments with
// NEST's Na and K channels, and receptors (AMPA, GABA, NMDA, AMPA_NMDA) on compartments. It is
// the cell kind of one Create call (models/neuron_model.hpp), built by `compartments` and
// `receptors` as NEST's SetStatus builds a node's tree, with NEST's checks and messages.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/neuron_model.hpp"

namespace ranvier {

struct CmCompartment {
  int32_t parent = -1;  // -1: the root
  // NEST's defaults: v_comp is -70 mV whatever e_L is, unless given
  double C_m = 1.0, g_C = 0.01, g_L = 0.1, e_L = -70.0, v_comp = -70.0;  // nF, µS, µS, mV, mV
  double gbar_Na = 0.0, e_Na = 50.0, gbar_K = 0.0, e_K = -85.0;          // µS, mV
};

enum class CmReceptorType : uint8_t { AMPA, GABA, NMDA, AMPA_NMDA };

struct CmReceptor {
  uint32_t compartment = 0;
  CmReceptorType type = CmReceptorType::AMPA;
  double e_rev = 0.0;  // mV
  // Rise and decay times (ms) of its conductances: AMPA_NMDA has two (AMPA's, NMDA's), the
  // others one.
  double tau_r[2] = {0.2, 0.2}, tau_d[2] = {3.0, 43.0};
  double NMDA_ratio = 2.0;
  int conductances() const { return type == CmReceptorType::AMPA_NMDA ? 2 : 1; }
};

struct CmKind final : CellKind {
  std::vector<CmCompartment> compartments;  // by index; a parent's index is below its children's
  std::vector<CmReceptor> receptors;        // by index (Connect's receptor_type)

  // NEST's add_compartment: the first is the root (parent -1), each other names an existing
  // parent; params as NEST's compartment dict (unknown names raise UnknownParameterError).
  void add_compartment(int64_t parent, const std::map<std::string, double>& params);
  // NEST's add_receptor: type AMPA, GABA, NMDA or AMPA_NMDA on an existing compartment.
  void add_receptor(int64_t compartment, const std::string& type, const std::map<std::string, double>& params);
  static const char* type_name(CmReceptorType t);
  // Every parameter of a compartment or receptor, by the names add_* takes.
  static std::map<std::string, double> parameters(const CmCompartment& c);
  static std::map<std::string, double> parameters(const CmReceptor& r);

  // The recordables, NEST's names: v_comp<c>, m_Na_<c>, h_Na_<c>, n_K_<c> per compartment,
  // g_r_AMPA_<r> and g_d_AMPA_<r> per receptor (AMPA_NMDA: g_r_AN_AMPA_<r>, ...).
  std::vector<std::string> recordables() const;
  // A recordable's code: compartment c's variable j (v, m, h, n) is 2 (4c + j), receptor r's
  // conductance j (g_r, g_d, then NMDA's for AMPA_NMDA) 2 (4r + j) + 1, so that adding
  // compartments or receptors leaves what multimeters record where it was; -1 if none.
  int recordable(const std::string& name) const;
};

}  // namespace ranvier
