# SPDX-License-Identifier: MIT
"""PidMapper: host pid -> container pid (pid_mapping.json), threads included."""
import json
import logging

from ._handle import FtscopeError, Handle, owner_value

log = logging.getLogger("ftscope")


class _Pm(Handle):
    kind = "pm"


class PidMapper:
    """Keeps @output up to date: written at start, rescanned every @interval s, and at stop.

    Every pid ever seen is kept (the reference loses processes that exit or
    start later), threads too: {"<host pid>": {"NSpid", "name", "Tgid", "PPid"}}.
    """

    def __init__(self, output="pid_mapping.json", interval=1.0, owner="sudo"):
        self.output = output
        self._h = _Pm()
        self._h.set_all({"output": output, "interval": float(interval),
                         "owner": owner_value(owner)})

    @property
    def running(self):
        """False in a forked child: the scanning thread is the parent's."""
        return self._h.mine() and bool(self._h._lib.fts_pm_running(self._h._h))

    def start(self):
        self._h.check_mine()
        self._h.check(self._h._lib.fts_pm_start(self._h._h))
        return self

    def stop(self):
        """Rescan once more, write the file, stop."""
        self._h.check_mine()
        self._h.check(self._h._lib.fts_pm_stop(self._h._h))

    def mapping(self):
        """The file's content as a dict (host pid string -> entry)."""
        with open(self.output, encoding="utf-8") as f:
            return json.load(f)

    def close(self):
        self._h.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        if self.running:
            self.stop()
        return False


def pidmap(output="pid_mapping.json", owner="sudo"):
    """Scan /proc once (processes and threads), write @output, return the mapping."""
    m = PidMapper(output, owner=owner)
    try:
        m.start()
        m.stop()
        return m.mapping()
    finally:
        m.close()


__all__ = ["PidMapper", "pidmap", "FtscopeError"]
