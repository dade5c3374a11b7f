// MPI for the exchange methods: the MPI communicator behind a Communicator.
#pragma once
#ifdef RANVIER_HAVE_MPI
#include <mpi.h>

namespace ranvier {
class Communicator;
// The MPI communicator of an MPI Communicator (MPI_COMM_SELF for a single process).
MPI_Comm mpi_handle(const Communicator& comm);
}  // namespace ranvier
#endif
