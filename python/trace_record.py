# SPDX-License-Identifier: MIT
"""Drop-in for the reference trace_record.py, on ftscope's recorder.

    import trace_record
    trace_record.ftrace_record_start(cpu_mask="0-4,7,10")
    ...  # the model
    trace_record.ftrace_record_stop(output="trace.dat")

Same functions, classes, defaults and flags as the reference; what differs is
underneath: a private tracefs instance (the global tracing state and other
tracers are left alone), events streamed to disk (nothing overwritten in the
ring buffer), per-CPU loss counters, threads in pid_mapping.json, and the
capture stopped and saved at interpreter exit and on SIGINT/SIGTERM if the
script never calls stop. Messages go through logging ("trace_record").

As a script it records like `ftscope record`:
    python trace_record.py --record_time=30 --cpu=0-15 --NSpid
"""
import argparse
import logging
import os
import sys
import time

import ftscope
from ftscope._convert import cpu_list

log = logging.getLogger("trace_record")

DEFAULT_TRACE_BUFFER_SIZE = 40960
TRACE_BACKEND_AUTO = "auto"
TRACE_BACKEND_TRACE_CMD = "trace-cmd"
TRACE_BACKEND_DEBUGFS = "debugfs"
_BACKENDS = (TRACE_BACKEND_AUTO, TRACE_BACKEND_TRACE_CMD, TRACE_BACKEND_DEBUGFS)

# The one capture this module's functions drive, as in the reference.
_recorder = None


class TraceEventConfig:
    """Which event groups to record: 1 on, 0 off."""

    def __init__(self, sched=1, irq=1, futex=0):
        self.sched = sched
        self.irq = irq
        self.futex = futex

    def __repr__(self):
        return "TraceEventConfig(sched=%r, irq=%r, futex=%r)" % (self.sched, self.irq, self.futex)


def _events(event_cfg, args):
    cfg = event_cfg if event_cfg is not None else TraceEventConfig()
    sched, irq, futex = cfg.sched, cfg.irq, getattr(cfg, "futex", 0)
    if args is not None:  # an argparse namespace with the script's flags wins
        sched = getattr(args, "sched", sched)
        irq = getattr(args, "irq", irq)
        futex = getattr(args, "futex", futex)
    return bool(int(sched)), bool(int(irq)), bool(int(futex))


def _text_name(output, backend):
    """The debugfs backend writes text: a .dat name becomes .txt, as the reference does."""
    if backend == TRACE_BACKEND_DEBUGFS and output and str(output).endswith(".dat"):
        new = str(output)[:-4] + ".txt"
        log.warning("the debugfs backend writes text; output renamed to %s", new)
        return new
    return output


def ftrace_record_start(cpu_mask=None, output="trace.dat", bf_size=DEFAULT_TRACE_BUFFER_SIZE,
                        event_cfg=None, args=None, backend="auto"):
    """Start recording; True when it runs, False (with the reason logged) when it cannot.

    @cpu_mask "0-3,8" or a list of ints (None: all online CPUs), @output the
    trace file, @bf_size KB per CPU, @event_cfg a TraceEventConfig, @args an
    argparse namespace with sched/irq/futex/backend (overrides), @backend
    auto, trace-cmd or debugfs. Needs root.
    """
    global _recorder
    if _recorder is not None and _recorder.running:
        log.error("ftrace_record_start: a capture is already running (to %s); stop it first",
                  _recorder.options["output"])
        return False
    if args is not None and getattr(args, "backend", None):
        backend = args.backend
    if backend not in _BACKENDS:
        log.error("ftrace_record_start: backend %r is not one of %s", backend, ", ".join(_BACKENDS))
        return False
    output = _text_name(output, backend)
    if os.geteuid() != 0:
        log.error("ftrace_record_start: recording needs root (tracefs); run the script with sudo")
        return False
    try:
        sched, irq, futex = _events(event_cfg, args)
        cpus = cpu_list(cpu_mask)
        rec = ftscope.Recorder(output=output, cpus=cpus, bf_size=bf_size, backend=backend,
                               sched=sched, irq=irq, futex=futex,
                               nspid=bool(getattr(args, "NSpid", False)))
        rec.start()
    except (ftscope.FtscopeError, ValueError, TypeError) as e:
        log.error("ftrace_record_start: %s", e)
        return False
    _recorder = rec
    try:
        h = rec.health()
    except ftscope.FtscopeError:
        h = {}  # it stopped already (e.g. a failed reader); stop will say why
    if h.get("skipped_events"):
        log.warning("events this kernel lacks, skipped: %s", h["skipped_events"])
    if h.get("fallback"):
        log.info("backend: %s (%s)", h["backend"], h["fallback"])
    log.info("recording to %s (CPUs %s, %s KB per CPU, backend %s)", output, cpus or "all",
             bf_size, h.get("backend"))
    return True


def _log_summary(output, summary):
    h = summary["health"]
    log.info("Trace data saved to %s: %d events, %d bytes, %.1f s", output, h["events"],
             summary["file_size"], summary["duration_s"])
    if h["lost"] or (h["lost_text"] not in ("none", "0")):
        log.warning("lost events: %s; consider a larger --bf_size, fewer CPUs or fewer events",
                    h["lost_text"])
    if summary.get("truncated"):
        log.error("the capture was cut short: %s", summary.get("failure"))
    if summary.get("pid_mapping"):
        log.info("pid mapping saved to %s", summary["pid_mapping"])


def ftrace_record_stop(output=None):
    """Stop recording and save; returns the saved path, or None (with the reason logged).

    The tracing state is restored even when saving fails. With @output the file
    is moved there (same filesystem) after it is written.
    """
    global _recorder
    rec = _recorder
    if rec is None:
        log.warning("ftrace_record_stop: no capture to stop (ftrace_record_start was not called, or failed)")
        return None
    _recorder = None
    if rec.running:
        log.info("Ending record, cleaning up...")
        try:
            rec.stop()
        except ftscope.FtscopeError as e:
            log.error("ftrace_record_stop: %s (tracing was stopped and restored)", e)
            if not rec.output:
                return None
    elif rec.output:
        log.info("the capture had already been stopped and saved (at a signal or exit)")
    if not rec.output:
        return None
    path = rec.output
    _log_summary(path, rec.summary)
    if output and path.endswith(".txt"):
        output = _text_name(output, TRACE_BACKEND_DEBUGFS)
    if output and os.path.abspath(output) != os.path.abspath(path):
        try:
            os.replace(path, output)  # a rename: never writes through a symlink at @output
            path = output
            log.info("moved to %s", output)
        except OSError as e:
            log.error("cannot move %s to %s: %s; the trace stays at %s", path, output, e, path)
    return path


class ContainerPidMapper:
    """Host pid -> container pid, written to @output_file (pid_mapping.json).

    start(None) writes it once; start(N) rewrites it every N seconds until
    stop(). Unlike the reference, threads are mapped and every pid ever seen
    is kept.
    """

    def __init__(self, output_file="pid_mapping.json"):
        self.output_file = output_file
        self._mapper = None

    def start(self, duration=None):
        if self.is_running():
            log.warning("ContainerPidMapper: already running")
            return
        try:
            if duration is None:
                ftscope.pidmap(self.output_file)
                log.info("pid mapping written to %s", self.output_file)
                return
            self._mapper = ftscope.PidMapper(self.output_file, interval=float(duration)).start()
        except ftscope.FtscopeError as e:
            self._mapper = None
            log.error("ContainerPidMapper: %s", e)

    def stop(self):
        m, self._mapper = self._mapper, None
        if m is None:
            return
        try:
            m.stop()
        except ftscope.FtscopeError as e:
            log.error("ContainerPidMapper: %s", e)
        finally:
            m.close()

    def is_running(self):
        return self._mapper is not None and self._mapper.running

    def get_pid_mapping(self):
        """The mapping last written, as a dict ({} before the first write)."""
        import json
        try:
            with open(self.output_file, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}


def _flags(parser, *names, **kw):
    """--a_b also as --a-b, as every ftscope flag."""
    spellings = []
    for n in names:
        spellings.append(n)
        if "_" in n:
            spellings.append(n.replace("_", "-"))
    parser.add_argument(*spellings, **kw)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="trace_record.py",
                                description="Record scheduler/irq events (ftscope record).")
    _flags(p, "--cpu", default=None, help="CPU list: 0,1,4 / 0-3,8 (default: all online CPUs)")
    _flags(p, "--output", default="trace.dat", help="output file (default trace.dat)")
    _flags(p, "--record_time", type=float, default=30, help="seconds; <= 0 records until Ctrl+C")
    _flags(p, "--bf_size", type=int, default=DEFAULT_TRACE_BUFFER_SIZE, help="KB per CPU")
    _flags(p, "--backend", default="auto", choices=_BACKENDS)
    _flags(p, "--sched", type=int, default=1, choices=(0, 1))
    _flags(p, "--irq", type=int, default=1, choices=(0, 1))
    _flags(p, "--futex", type=int, default=0, choices=(0, 1))
    _flags(p, "--NSpid", action="store_true", help="also write pid_mapping.json")
    return p.parse_args(argv)


def _wait(rec, record_time):
    end = time.monotonic() + record_time if record_time > 0 else None
    last_log = time.monotonic()
    while rec.running:
        h = rec.health()
        if h["done"] or h["failed"] or (end is not None and time.monotonic() >= end):
            if h["failed"]:
                log.error("recording failed: %s", h["failure"])
            return
        if time.monotonic() - last_log >= 5:
            last_log = time.monotonic()
            log.info("%.0f s: %d events (%.0f/s), lost: %s", h["elapsed_s"], h["events"],
                     h["events_per_s"], h["lost_text"])
        time.sleep(0.2)


def main(argv=None):
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] [%(levelname)s]:%(message)s")
    args = parse_args(argv)
    if not ftrace_record_start(cpu_mask=args.cpu, output=args.output, bf_size=args.bf_size,
                               args=args, backend=args.backend):
        return 1
    rec = _recorder
    try:
        _wait(rec, args.record_time)
    except KeyboardInterrupt:
        log.info("interrupted")
    return 0 if ftrace_record_stop() else 1


if __name__ == "__main__":
    sys.exit(main())
