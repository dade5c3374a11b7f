"""Ranvier imported as ``nest`` (sys.modules["nest"] = ranvier, how NEST's scripts run
unchanged): a submodule imported through the alias is Ranvier's own module, not a second copy
whose classes Ranvier does not know."""

import subprocess
import sys

SCRIPT = """
import sys
import ranvier
sys.modules["nest"] = ranvier
import nest
import nest.raster_plot
import nest.voltage_trace
import nest.random
assert nest.raster_plot is ranvier.raster_plot and nest.voltage_trace is ranvier.voltage_trace
assert nest.random is sys.modules["ranvier.random"] is sys.modules["nest.random"]
assert sys.modules["nest.raster_plot"] is sys.modules["ranvier.raster_plot"]
n = nest.Create("iaf_psc_exp_multisynapse", 4, params={"tau_syn": [1.0, 2.0]})
nest.Connect(n, n, syn_spec={"receptor_type": nest.random.uniform_int(2) + 1})  # a Parameter Ranvier knows
try:
    import nest.lib.hl_api_types
except ImportError:
    print("ok")
"""


def test_submodules_of_the_alias_are_ranviers_own():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
