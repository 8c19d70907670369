"""``python -m anchormem ...`` runs the ``anchormem`` command (``server.cli:main``)."""

import sys

from server.cli import main

if __name__ == "__main__":
    sys.exit(main())
