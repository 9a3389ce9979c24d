"""``python -m haidi``: the same as the ``haidi`` command."""

import sys

from .cli import main

sys.exit(main())
