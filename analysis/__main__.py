"""`python -m pypto_lens`: the language server (LSP over stdio; --tcp / --ws for sockets)."""
import sys

from pypto_lens.server.main import main

sys.exit(main())
