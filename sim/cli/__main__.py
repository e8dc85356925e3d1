"""``python -m sim.cli``: the same as the ``rummy-sim`` command."""

import sys

from sim.cli import main

sys.exit(main())
