"""Real processes in tests: stop a process group as Ctrl-C in a terminal would, and never leave
it running when it does not stop.

Not a test file; the tests that start ``knightstour`` as a program import it.
"""

from __future__ import annotations

import os
import signal
import subprocess


def interrupt_group(proc: subprocess.Popen[str], timeout: float = 60) -> tuple[str, str]:
    """Send SIGINT to ``proc``'s process group (started with ``start_new_session=True``) and
    return its output once it has ended. A group still running after ``timeout`` seconds is
    killed (SIGKILL) before the test fails, so that no process outlives the test.

    >>> import sys
    >>> p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
    ...                      start_new_session=True, stderr=subprocess.DEVNULL, text=True)
    >>> interrupt_group(p, timeout=30), p.returncode != 0
    ((None, None), True)
    """
    os.killpg(proc.pid, signal.SIGINT)
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
