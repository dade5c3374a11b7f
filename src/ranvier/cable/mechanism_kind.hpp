// A mechanism compiled from an NMODL file (ranvier.nmodl generates its C++ and load_mechanisms
// loads it as a module, plugin/module.hpp): a density mechanism (SUFFIX, on the CVs of regions)
// or a point process (POINT_PROCESS, a cell's synapse), what it declares, and its kernels over
// its instances in one block of kLanes cells. Per step, as NEURON's fixed step: events
// (NET_RECEIVE), currents at v (BREAKPOINT), the solve, then the states at the new v (its SOLVE).
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

struct MechanismDeclaration {
  std::string name;  // SUFFIX or POINT_PROCESS
  // A point process: currents in nA and conductances in µS (a density's: mA/cm², S/cm²), and
  // events through NET_RECEIVE.
  bool point;
  std::vector<MechanismParameter> parameters;  // PARAMETERs: per instance, settable per region or synapse
  size_t fields;  // values per instance: the parameters first, then STATEs and ASSIGNED values
  std::vector<IonUse> ions;
};

// One ion's values at every node of a block, [node] each.
struct IonRows {
  Lanes *e, *current, *inside, *outside;  // mV, mA/cm², mM, mM
};

// One block's instances of a mechanism, as its kernels see them.
struct MechanismBlock {
  size_t n;              // instances
  const uint32_t* node;  // each instance's node
  // Each instance's factor from the mechanism's current to nA (and conductance to µS): a
  // density's area times 1e-2 (mA/cm² over µm²), a point process's 1.
  const double* to_nA;
  const Lanes* v;       // [node]: mV
  Lanes* values;        // [field][instance]: values[f * n + k]
  const IonRows* ions;  // as declared
  Lanes *rhs, *d;       // current(): the matrix, node i at [i * stride]
  size_t stride;
  Lanes celsius;
  double dt, t;
};

class MechanismKind {
 public:
  virtual ~MechanismKind() = default;
  virtual const MechanismDeclaration& declaration() const = 0;
  virtual void initialize(const MechanismBlock& b) const = 0;  // INITIAL at v
  // BREAKPOINT: its current i at v into the matrix (rhs -= i, d += di/dv: the currents'
  // conductances where NMODL found them, else from i at v + 0.001 mV as NEURON takes it), ion
  // currents added to the ions'.
  virtual void current(const MechanismBlock& b) const = 0;
  virtual void advance(const MechanismBlock& b) const = 0;  // the SOLVE of BREAKPOINT at the new v
  // A point process's NET_RECEIVE for an event of `weight` on instance k in the lanes of `lane`
  // (one bit set); a density mechanism takes no events.
  virtual void net_receive(const MechanismBlock&, size_t /*k*/, LaneBits /*lane*/, double /*weight*/) const {}
};

// Compiled mechanisms by name, as modules add them (density_defaults, synapse_defaults and the
// description's checks know them too); nullptr for a built-in or unknown one.
const MechanismKind* compiled_mechanism(const std::string& name);
void add_compiled_mechanism(const MechanismKind* kind);  // throws where the name is taken
// Where a mechanism stands in the order they were added: a node's mechanisms run in this order,
// as NEURON's run in the order their types were registered (a .mod folder's files sorted).
size_t compiled_mechanism_order(const MechanismKind* kind);

}  // namespace ranvier::cable
