#!/usr/bin/env python3
"""One line that says where a benchmark ran: wall-clock figures mean little without it.

  python tools/machine.py

The processor's model, how many cores the process may use, the load average over 1, 5 and 15
minutes (a figure taken at a load near the core count is not one of an idle machine), and the
Python that ran it. Whatever the system does not tell is left out.
"""
from __future__ import annotations

import os
import platform
from pathlib import Path

from pypto_lens.cli.parallel import default_jobs


def processor() -> str:
    """The processor's model name (/proc/cpuinfo on Linux), else what the platform module says."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown processor"


def describe() -> str:
    parts = [f"machine: {processor()}, {default_jobs()} cores"]  # (the cores this process may use)
    if hasattr(os, "getloadavg"):
        parts.append("load average " + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    parts.append(f"Python {platform.python_version()}")
    return "; ".join(parts)


if __name__ == "__main__":
    print(describe())
