// The MPI header, when Ranvier is built with MPI.
#pragma once
#ifdef RANVIER_HAVE_MPI
#include <mpi.h>
#endif
