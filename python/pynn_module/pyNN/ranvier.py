"""``import pyNN.ranvier as sim``: Ranvier's PyNN back end (installed with Ranvier; the back end
itself is ranvier.pynn)."""

from ranvier.pynn import *  # noqa: F403
from ranvier.pynn import list_standard_models, native_cell_type  # noqa: F401
