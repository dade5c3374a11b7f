"""``python -m ranvier.bench NAME [options]``; see ranvier.bench."""
import sys

from . import main

sys.exit(main())
