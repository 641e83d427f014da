"""`python -m server` from a clone's top folder (what the shared checkers run by default): the same
language server as `python -m pypto_lens`, which is what a user runs."""
import sys

from pypto_lens.server.main import main

sys.exit(main())
