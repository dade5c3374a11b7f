// The description of one kind of multicompartment cell: an unbranched-segment tree of cylinders,
// its discretisation into CVs (NEURON's segments), density mechanisms per branch, point synapses,
// a spike detector and current clamps. Units as NEURON's: µm, µF/cm², Ω·cm, S/cm², mV, nA, µS,
// ms, °C.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ranvier::cable {

struct Location {
  uint32_t branch = 0;
  double x = 0.5;  // in [0, 1] along the branch, 0 at its proximal end
};

struct Branch {
  std::string name;                     // region name (several branches may share one, e.g. "dend")
  int parent = -1;                      // index of the parent branch (< own index), -1 for the root (branch 0 only)
  double parent_x = 1.0;                // where on the parent it attaches (NEURON's connect(parent(x)))
  double length = 0.0, diameter = 0.0;  // µm (of a tapered branch, `taper` gives the diameter)
  uint32_t n_cv = 1;                    // CVs (NEURON's nseg)
  // A tapered branch: its diameter (µm) at points x along it, x ascending from 0 to 1, linear
  // between them (truncated cones: Arbor's tapered segments, NEURON's 3D points); empty: a
  // cylinder of `diameter`.
  std::vector<std::pair<double, double>> taper;
  double diameter_at(double x) const;
  // The branch's own values where its region's differ from the description's (NaN, or no ion:
  // the description's), as an Allen fit's JSON gives them per section type.
  double cm = NAN, Ra = NAN;
  std::map<std::string, double> ion_e;
};

struct Density {  // "hh", "pas" or a loaded density mechanism on every CV of one branch
  std::string model;
  uint32_t branch = 0;
  std::map<std::string, double> params;  // missing ones take NEURON's defaults
};

struct PointSynapse {  // "expsyn", "exp2syn" or a loaded point process
  std::string name, model;
  Location location;
  std::map<std::string, double> params;
};

struct CurrentClamp {  // NEURON's IClamp
  Location location;
  double delay = 0, duration = 0, amplitude = 0;  // ms, ms, nA
};

struct Description {
  std::vector<Branch> branches;
  double dt = 0.025, cm = 1.0, Ra = 35.4, V_init = -65.0, celsius = 6.3;  // NEURON's defaults
  std::map<std::string, double> ion_e;  // reversal potentials: "na" (default 50), "k" (default -77)
  // A branch's cm, Ra and reversal potential of an ion (its own, the description's, or NEURON's
  // default).
  double cm_of(uint32_t branch) const;
  double Ra_of(uint32_t branch) const;
  double ion_e_of(uint32_t branch, const std::string& ion) const;
  std::vector<Density> densities;
  std::vector<PointSynapse> synapses;  // input port p of a cell is synapses[p]
  Location detector;
  double threshold = -10.0;
  std::vector<CurrentClamp> clamps;
};

// Throws BadParameterError naming the offending item and its value.
void validate(const Description& d);

// CV policies (NEURON/Arbor semantics): each sets n_cv of branches.
void cv_per_branch(Description& d, const std::map<std::string, uint32_t>& per_region);  // others keep n_cv
void cv_max_length(Description& d, double max_length);  // ceil(length / max_length), at least 1
// AllenSDK's and BMTK's rule: nseg = 1 + 2 int(L / length).
void cv_odd_per_length(Description& d, double length);
// NEURON's d_lambda rule: nseg = int((L / (d_lambda * lambda_f(100 Hz)) + 0.9) / 2) * 2 + 1.
void cv_d_lambda(Description& d, double d_lambda);

}  // namespace ranvier::cable
