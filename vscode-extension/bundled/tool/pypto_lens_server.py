"""Starts the PyPTO Lens language server from inside the VS Code extension.

The extension runs `python -I bundled/tool/pypto_lens_server.py`: isolated mode keeps
PYTHONPATH, the user's site-packages and the working directory out of sys.path, so
the packages come from ../libs (installed there when the .vsix is built) and, with
PYPTO_LENS_IMPORT_STRATEGY=fromEnvironment, from the interpreter's environment first.
"""
import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def _set_path() -> None:
    if os.environ.get("PYPTO_LENS_IMPORT_STRATEGY") == "fromEnvironment":
        sys.path.append(LIBS)
    else:
        sys.path.insert(0, LIBS)


if __name__ == "__main__":
    if sys.version_info < (3, 10):
        sys.stderr.write("ERROR pypto-lens: Python 3.10 or newer is needed, this is %d.%d\n" % sys.version_info[:2])
        sys.exit(1)
    _set_path()  # the log level comes to the server in PYPTO_LENS_LOG_LEVEL
    from pypto_lens.server.main import main

    sys.exit(main([]))
