// The base of every error Ranvier throws on purpose; kind() names its class (UnknownModelError,
// UnknownParameterError, BadParameterError, IllegalConnectionError, UnknownNodeError,
// KernelStateError, NumericalInstabilityError), which is also the Python exception class
// (ranvier.errors) the binding raises it as.
#pragma once
#include <stdexcept>

namespace ranvier {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  virtual const char* kind() const = 0;
};

}  // namespace ranvier
