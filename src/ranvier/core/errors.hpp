// The kernel's errors, one class per kind. The binding raises each as the Python class of
// the same name in ranvier.errors, so Python never has to read a message to classify it.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "ranvier/error.hpp"  // the base class, public

namespace ranvier {

#define RANVIER_ERROR_KIND(Name)                        \
  class Name final : public Error {                     \
   public:                                              \
    using Error::Error;                                 \
    const char* kind() const override { return #Name; } \
  };

RANVIER_ERROR_KIND(UnknownModelError)          // a model, rule, device or method name that does not exist
RANVIER_ERROR_KIND(UnknownParameterError)      // a parameter or variable the model does not have
RANVIER_ERROR_KIND(BadParameterError)          // a value of the wrong type, shape or range
RANVIER_ERROR_KIND(IllegalConnectionError)     // a connection its source, target or synapse model cannot take
RANVIER_ERROR_KIND(UnknownNodeError)           // a node id that does not exist
RANVIER_ERROR_KIND(KernelStateError)           // an operation the kernel cannot do in its current state
RANVIER_ERROR_KIND(NumericalInstabilityError)  // a neuron's state left the range its model integrates
RANVIER_ERROR_KIND(OutOfMemoryError)           // what a call asked to build does not fit (named, with its size)
#undef RANVIER_ERROR_KIND

// "name must be rule, got name = value": the form of every bad-value message.
template <typename T>
BadParameterError bad_value(const std::string& name, const T& value, const std::string& rule) {
  std::ostringstream msg;
  msg << name << " must be " << rule << ", got " << name << " = " << value;
  return BadParameterError(msg.str());
}

// A list for an error message: "[1, 2.5]".
inline std::string listed(const std::vector<double>& v) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
  out << "]";
  return out.str();
}

}  // namespace ranvier
