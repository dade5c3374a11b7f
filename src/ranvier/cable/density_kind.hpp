// A density mechanism compiled from an NMODL file (ranvier.nmodl generates its C++ and
// load_mechanisms loads it as a module, plugin/module.hpp): what it declares, and its kernels
// over its instances (the CVs it is on) in one block of kLanes cells. Per step, as NEURON's fixed
// step: currents at v (BREAKPOINT), the solve, then the states at the new v (its SOLVE).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cable/lanes.hpp"
#include "cable/mechanisms.hpp"

namespace ranvier::cable {

// An ion a mechanism uses (USEION), and which of the ion's values it writes.
struct IonUse {
  std::string ion;
  double valence;
  bool writes_inside, writes_outside;  // <ion>i, <ion>o (a concentration mechanism)
};

struct DensityDeclaration {
  std::string name;                            // SUFFIX
  std::vector<MechanismParameter> parameters;  // PARAMETERs: per instance, settable per region
  size_t fields;  // values per instance: the parameters first, then STATEs and ASSIGNED values
  std::vector<IonUse> ions;
};

// One ion's values at every node of a block, [node] each.
struct IonRows {
  Lanes *e, *current, *inside, *outside;  // mV, mA/cm², mM, mM
};

// One block's instances of a mechanism, as its kernels see them.
struct DensityBlock {
  size_t n;              // instances
  const uint32_t* node;  // each instance's node
  const double* to_nA;   // each instance's area as a factor from mA/cm² to nA (and S/cm² to µS)
  const Lanes* v;        // [node]: mV
  Lanes* values;         // [field][instance]: values[f * n + k]
  const IonRows* ions;   // as declared
  Lanes *rhs, *d;        // current(): the matrix, node i at [i * stride]
  size_t stride;
  Lanes celsius;
  double dt, t;
};

class DensityKind {
 public:
  virtual ~DensityKind() = default;
  virtual const DensityDeclaration& declaration() const = 0;
  virtual void initialize(const DensityBlock& b) const = 0;  // INITIAL at v
  // BREAKPOINT: its current i at v into the matrix (rhs -= i, d += di/dv, di/dv from i at
  // v + 0.001 mV as NEURON takes it), ion currents added to the ions'.
  virtual void current(const DensityBlock& b) const = 0;
  virtual void advance(const DensityBlock& b) const = 0;  // the SOLVE of BREAKPOINT at the new v
};

// Compiled mechanisms by name, as modules add them (density_defaults and the description's checks
// know them too); nullptr for a built-in or unknown one.
const DensityKind* compiled_density(const std::string& name);
void add_compiled_density(const DensityKind* kind);  // throws where the name is taken
// Where a mechanism stands in the order they were added: a node's mechanisms run in this order,
// as NEURON's run in the order their types were registered (a .mod folder's files sorted).
size_t compiled_density_order(const DensityKind* kind);

}  // namespace ranvier::cable
