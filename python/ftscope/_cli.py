# SPDX-License-Identifier: MIT
"""The wheel's `ftscope` command: the bundled static binary, run in this process's place.

exec keeps everything a user sees: the arguments, the terminal (the TUI),
signals (Ctrl+C reaches ftscope itself) and the exit status.
"""
import os
import sys

from ._lib import BUNDLED


def main():
    try:
        os.execv(BUNDLED, ["ftscope"] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write("ftscope: cannot run the bundled binary %s: %s; reinstall the wheel\n"
                         % (BUNDLED, e.strerror))
        return 1


if __name__ == "__main__":
    sys.exit(main())
