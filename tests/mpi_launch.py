"""Runs a script of tests/mpi under real mpiexec (the build's, beside the interpreter) and puts
tests/mpi on the path, so tests build the same networks the scripts do."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ranvier import _kernel

HERE = Path(__file__).parent / "mpi"
sys.path.insert(0, str(HERE))

MPIEXEC = shutil.which("mpiexec", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
HAVE_MPI = bool(_kernel.built_with_mpi() and MPIEXEC)

# Ranks and threads oversubscribe the cores here (up to 4 ranks x 2 threads on 2 cores): waiting
# threads must sleep, not spin. OpenMP's passive wait does it for threads; MPICH's throttle does it
# for a rank waiting in MPI (it sleeps after 10 polls without progress): without it a spinning rank
# holds its core for a whole time slice per exchange, and 3 or 4 ranks run 25-100x slower than 2.
QUIET_WAITING = {
    "OMP_WAIT_POLICY": "passive",
    "MPIR_CVAR_CH4_PROGRESS_THROTTLE": "1",
    "MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT": "10",
}


def mpirun(n, script, *args, timeout=900):
    """stdout of `mpiexec -n n python tests/mpi/<script> args...`; a failure shows both streams."""
    done = subprocess.run(
        [MPIEXEC, "-n", str(n), sys.executable, str(HERE / script), *map(str, args)],
        cwd=HERE,
        env={**os.environ, **QUIET_WAITING},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
