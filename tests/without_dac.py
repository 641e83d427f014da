"""Run a command without the capabilities that let root read every file, so that a file's permissions
count for it as for any user: `python tests/without_dac.py COMMAND ARGS...`.

The tests run as root here and in CI, and root ignores permissions (CAP_DAC_OVERRIDE,
CAP_DAC_READ_SEARCH). Dropping both from the bounding set (Linux prctl PR_CAPBSET_DROP, what
`setpriv --bounding-set=-dac_override,-dac_read_search` does) before exec leaves the command
without them; it still runs as root, so the files root owns stay its own. Not root: nothing to
drop. A drop that fails ends this with an error (the test that needs it then fails: not skipped).
"""
from __future__ import annotations

import ctypes
import os
import sys

PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE = 1
CAP_DAC_READ_SEARCH = 2


def main() -> None:
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
            if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
                sys.exit(f"without_dac: prctl(PR_CAPBSET_DROP, {capability}) failed: "
                         f"{os.strerror(ctypes.get_errno())}")
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
