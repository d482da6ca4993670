# SPDX-License-Identifier: MIT
"""Drop-in for the reference trace_record.py, on ftscope's recorder (libftscope).

    import trace_record
    trace_record.ftrace_record_start(cpu_mask="0-4,7,10")
    ...  # the model
    trace_record.ftrace_record_stop()

Every public name of the reference module, with its signature, defaults,
return values and logged messages (through the root logger, as there). What
differs is underneath: a private tracefs instance (the global tracing state
and other tracers are left alone; trace_clear/trace_reset have nothing to
clear), events streamed to disk (nothing overwritten in the ring buffer),
per-CPU loss counters, threads in pid_mapping.json, a capture stopped and
saved at interpreter exit and on SIGINT/SIGTERM if the script never calls
stop, and TraceRecordDaemon on ftscope's flight recorder. The reference's
trace-cmd subprocess plumbing has no equivalent here (see python/README.md).

As a script it records like `ftscope record`, without the y/N question:
    python trace_record.py --record_time=30 --cpu=0-15 --NSpid
"""
import argparse
import glob
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time

import ftscope

TRACE_BACKEND_AUTO = "auto"
TRACE_BACKEND_TRACE_CMD = "trace-cmd"
TRACE_BACKEND_DEBUGFS = "debugfs"
DEFAULT_DEBUGFS_TRACE_ROOTS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
TRACE_COPY_CHUNK_SIZE = 1024 * 1024
DEFAULT_TRACE_BUFFER_SIZE = 40960  # KB per CPU
DEFAULT_TRACE_RECORD_TIME = 30     # seconds

SCHED_EVENT_LIST = {
    "sched:sched_switch", "sched:sched_wakeup", "sched:sched_waking", "sched:sched_wakeup_new",
    "sched:sched_migrate_task", "sched:sched_stat_runtime", "sched:sched_process_fork",
    "sched:sched_process_exec", "sched:sched_process_exit",
}
IRQ_EVENT_LIST = {
    "irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_raise", "irq:softirq_entry",
    "irq:softirq_exit",
}
FUTEX_EVENT_LIST = {"syscalls:sys_enter_futex", "syscalls:sys_exit_futex"}

_BACKENDS = (TRACE_BACKEND_AUTO, TRACE_BACKEND_TRACE_CMD, TRACE_BACKEND_DEBUGFS)
_NO_DATA_HINT = ("The collection time may have been too short to capture any data. "
                 "Consider increasing --record_time, or reducing --bf_size "
                 "(to shorten trace-cmd warmup time, provided no ring buffer data loss occurs).")
_CPU_HINT = "Please use non-negative integers (e.g., '0-3,5'). Negative values are not supported."
_MASK_HINT = "Hint: CPU mask should be a string (e.g., '0-3,5') or a list of integers (e.g., [0, 1, 2])."


def _is_root_user():
    """True for root (and where the platform has no uids)."""
    getuid = getattr(os, "getuid", None)
    return True if getuid is None else getuid() == 0


class TraceEventConfig:
    """Which event groups to record: 1 on, 0 off."""

    def __init__(self, sched=1, irq=1, futex=0):
        self.sched = sched
        self.irq = irq
        self.futex = futex

    def __repr__(self):
        return "TraceEventConfig(sched=%r, irq=%r, futex=%r)" % (self.sched, self.irq, self.futex)


class CPUParser:
    """CPU lists as the reference takes them: "0-3,8" or [0, 1, 8]; None means all CPUs."""

    @staticmethod
    def parse_cpu_arg(cpu_str):
        """"0-2,5" -> [0, 1, 2, 5] (sorted, duplicates merged); None (logged) when invalid or empty."""
        if not cpu_str:
            return None
        if not isinstance(cpu_str, str):
            logging.error("Unexpected error parsing CPU arguments. %s", _CPU_HINT)
            return None
        cpus = set()
        for part in (p.strip() for p in cpu_str.split(",")):
            if not part:
                continue
            if "-" not in part:
                if not part.isdigit():
                    logging.error("Invalid CPU ID detected: '%s'. %s", part, _CPU_HINT)
                    return None
                cpus.add(int(part))
                continue
            bounds = part.split("-")
            if len(bounds) != 2 or not all(b.isdigit() for b in bounds):
                logging.error("Invalid range format or negative value detected: '%s'. %s", part, _CPU_HINT)
                return None
            lo, hi = int(bounds[0]), int(bounds[1])
            if lo > hi:
                logging.error("Range start must be not greater than end: '%s'.", part)
                return None
            cpus.update(range(lo, hi + 1))
        return sorted(cpus)

    @staticmethod
    def normalize_cpu_mask(cpu_mask):
        """A string or a list of CPU numbers as a sorted list; None for None, and (logged) when invalid."""
        if cpu_mask is None:
            return None
        if isinstance(cpu_mask, str):
            logging.info("Received cpu mask string input: '%s', parsing...", cpu_mask)
            return CPUParser.parse_cpu_arg(cpu_mask)
        if isinstance(cpu_mask, (list, tuple, set, frozenset)):
            bad = [c for c in cpu_mask if isinstance(c, bool) or not isinstance(c, int) or c < 0]
            if bad:
                logging.error("Invalid CPU ID(s) detected in list: %s. %s", bad, _MASK_HINT)
                return None
            return sorted(set(cpu_mask))
        logging.error("Unsupported CPU mask type for cpu_mask: %s. %s", type(cpu_mask).__name__, _MASK_HINT)
        return None

    @staticmethod
    def cpus_to_cpumask(cpus):
        """[0, 1, 2, 3, 8] -> "0000010f": 32-bit hex groups, most significant first ("0" for none)."""
        mask = 0
        for cpu in cpus:
            if isinstance(cpu, bool) or not isinstance(cpu, int) or cpu < 0:
                raise ValueError("Invalid CPU ID: %r" % (cpu,))
            mask |= 1 << cpu
        if not mask:
            return "0"
        groups = []
        while mask:
            groups.insert(0, "%08x" % (mask & 0xFFFFFFFF))
            mask >>= 32
        return ",".join(groups)

    @staticmethod
    def get_online_cpus():
        """The online CPUs (/sys/devices/system/cpu/online) as a list; None (logged) when unreadable."""
        try:
            with open("/sys/devices/system/cpu/online", encoding="utf-8") as f:
                text = f.read().strip()
        except OSError as e:
            logging.warning("Failed to read online CPU list: %s", e)
            return None
        return CPUParser.parse_cpu_arg(text)


def _loss_message(backend, total):
    logging.warning("ftrace ring buffer was overwritten or dropped events during %s recording: "
                    "total_loss_counters=%d. Trace data may be incomplete; consider increasing --bf-size.",
                    backend, total)


class TraceRecord:
    """The reference's recorder class, as a thin shim over one ftscope.Recorder.

    Class-level state as there (_backend_name, _trace_root, _output_path);
    trace_start/trace_stop start and stop the capture through libftscope.
    trace_clear and trace_reset have nothing global to clear: the capture
    lives in its own tracefs instance, removed at stop (trace_reset stops a
    capture a failed stop left running). The trace-cmd subprocess and global
    tracefs writers of the reference are not here (python/README.md).
    """

    _WAIT_TIMEOUT_SEC = 60
    _TERMINATE_TIMEOUT_SEC = 1
    _record_process = None   # the reference's trace-cmd child; ours never has one
    _backend_name = None
    _trace_root = None
    _output_path = None
    _recorder = None         # the running ftscope.Recorder
    _summary = None          # the last stop's summary, until its loss is reported

    @staticmethod
    def configure_backend(backend_name=TRACE_BACKEND_AUTO):
        """Choose the backend: auto (ftscope's native instance recorder), trace-cmd, or debugfs (text)."""
        if backend_name == TRACE_BACKEND_AUTO:
            TraceRecord._backend_name, TraceRecord._trace_root = backend_name, None
            return backend_name
        if backend_name == TRACE_BACKEND_TRACE_CMD:
            if not TraceRecord._is_trace_cmd_available():
                raise FileNotFoundError("trace-cmd was not found in PATH or /usr/bin/trace-cmd")
            TraceRecord._backend_name, TraceRecord._trace_root = backend_name, None
            return backend_name
        if backend_name == TRACE_BACKEND_DEBUGFS:
            root = TraceRecord._trace_root or TraceRecord.detect_tracing_root()
            if not root:
                raise FileNotFoundError("Tracing root was not found under /sys/kernel/tracing "
                                        "or /sys/kernel/debug/tracing")
            TraceRecord._backend_name, TraceRecord._trace_root = backend_name, root
            return backend_name
        raise ValueError("Unsupported trace backend: %s" % (backend_name,))

    @staticmethod
    def get_backend_name():
        return TraceRecord._ensure_backend()

    @staticmethod
    def _ensure_backend():
        if TraceRecord._backend_name is None:
            TraceRecord.configure_backend()
        return TraceRecord._backend_name

    @staticmethod
    def detect_tracing_root():
        """The first tracing directory with trace and tracing_on, else None."""
        for root in DEFAULT_DEBUGFS_TRACE_ROOTS:
            if os.path.isdir(root) and all(os.path.exists(os.path.join(root, f))
                                           for f in ("trace", "tracing_on")):
                return root
        return None

    @staticmethod
    def _get_trace_cmd_path():
        return shutil.which("trace-cmd") or "/usr/bin/trace-cmd"

    @staticmethod
    def _is_trace_cmd_available():
        if shutil.which("trace-cmd"):
            return True
        return os.path.isfile("/usr/bin/trace-cmd") and os.access("/usr/bin/trace-cmd", os.X_OK)

    @staticmethod
    def _get_final_output_path(output=None):
        """The output a start writes: trace.dat (trace.txt with debugfs); debugfs makes .dat .txt, warned."""
        backend = TraceRecord._ensure_backend()
        if output is None:
            output = "trace.txt" if backend == TRACE_BACKEND_DEBUGFS else "trace.dat"
        output = os.fspath(output)
        if backend == TRACE_BACKEND_DEBUGFS and output.lower().endswith(".dat"):
            text = output[:-4] + ".txt"
            if text != TraceRecord._output_path:  # said once, at start, not again at stop
                logging.warning("debugfs backend produces text trace data, output path is adjusted "
                                "from %s to %s. Use the adjusted file as trace_convert.py input.",
                                output, text)
            output = text
        return output

    @staticmethod
    def _get_saved_output_path():
        if TraceRecord._output_path is not None:
            return TraceRecord._output_path
        return TraceRecord._get_final_output_path()

    @staticmethod
    def _parse_tracefs_stats(content):
        """A per_cpu/cpuN/stats text as {key: value} (lines without ':' skipped)."""
        stats = {}
        for line in content.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                stats[key.strip()] = value.strip()
        return stats

    @staticmethod
    def _stat_value_to_int(value):
        """The first number of a stats value ("123 entries" -> 123); 0 when there is none."""
        words = (value or "").split()
        try:
            return int(words[0]) if words else 0
        except ValueError:
            return 0

    @staticmethod
    def _get_ring_buffer_stats_root(backend):
        if backend == TRACE_BACKEND_DEBUGFS:
            return TraceRecord._trace_root
        return TraceRecord.detect_tracing_root()

    @staticmethod
    def check_trace_buffer_loss():
        """Warn when a tracing root's per_cpu/*/stats count lost events (the reference's check;
        ftrace_record_stop reports our own capture's per-CPU counters instead)."""
        TraceRecord._check_stats_dir(TraceRecord._ensure_backend())

    @staticmethod
    def _check_own_loss():
        """Our capture's loss (running: live counters; just stopped: its summary), warned as the
        reference words it. False when there is no capture of ours to ask."""
        backend = TraceRecord._ensure_backend()
        rec, summary = TraceRecord._recorder, TraceRecord._summary
        TraceRecord._summary = None
        if rec is not None and rec.running:
            health = rec.health()
        elif summary is not None:
            health = summary["health"]
        else:
            return False
        if health.get("counters") is False:
            if not (rec is not None and rec.running):  # trace-cmd's come with its summary
                logging.warning("Unable to check whether ftrace ring buffer lost events for %s backend: %s",
                                backend, health.get("lost_text"))
        elif health["lost"] > 0:
            _loss_message(backend, health["lost"])
            logging.warning("lost per CPU: %s", ", ".join(
                "cpu%d %s" % (c["cpu"], c["lost_text"]) for c in health["cpus"] if c["lost"]))
        return True

    @staticmethod
    def _check_stats_dir(backend):
        root = TraceRecord._get_ring_buffer_stats_root(backend)
        if not root:
            logging.warning("Unable to check whether ftrace ring buffer lost events for %s backend. "
                            "Trace data may be incomplete if the ring buffer was overwritten.", backend)
            return
        per_cpu = os.path.join(root, "per_cpu")
        if not os.path.isdir(per_cpu):
            logging.warning("Unable to check whether ftrace ring buffer lost events for %s backend: "
                            "per-CPU ring buffer stats directory is unavailable: %s", backend, per_cpu)
            return
        found, total = False, 0
        for name in sorted(os.listdir(per_cpu)):
            path = os.path.join(per_cpu, name, "stats")
            if not (name.startswith("cpu") and name[3:].isdigit() and os.path.isfile(path)):
                continue
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    stats = TraceRecord._parse_tracefs_stats(f.read())
            except OSError as e:
                logging.warning("Failed to check ftrace ring buffer loss from %s: %s", path, e)
                continue
            found = True
            total += sum(TraceRecord._stat_value_to_int(stats.get(k))
                         for k in ("overrun", "commit overrun", "dropped events"))
        if not found:
            logging.warning("No per-CPU ring buffer stats files found under %s", per_cpu)
        elif total > 0:
            _loss_message(backend, total)

    # The reference's writers of the global tracing directory, by name only: ftscope never
    # writes there (its capture has its own instance), so calling one is a programming error.
    @staticmethod
    def _refuse(name):
        raise NotImplementedError("TraceRecord.%s: ftscope records in its own tracefs instance and "
                                  "never writes the global tracing directory" % name)

    @staticmethod
    def _write_tracefs_text(relative_path, content):
        TraceRecord._refuse("_write_tracefs_text")

    @staticmethod
    def _set_tracefs_cpumask(cpu_mask):
        TraceRecord._refuse("_set_tracefs_cpumask")

    @staticmethod
    def _set_tracefs_events(event_cfg):
        TraceRecord._refuse("_set_tracefs_events")

    @staticmethod
    def _copy_tracefs_trace(output):
        TraceRecord._refuse("_copy_tracefs_trace")

    @staticmethod
    def trace_clear():
        """Nothing to clear: each capture starts in a new, empty tracefs instance."""
        TraceRecord._ensure_backend()

    @staticmethod
    def trace_reset(log_stats=True):
        """Stop (quickly, keeping what was written) a capture a failed stop left running."""
        if log_stats:
            _check_trace_buffer_loss_safely()
        rec = TraceRecord._recorder
        if rec is not None and rec.running:
            try:
                rec.stop("cut")
            except ftscope.FtscopeError as e:
                logging.error("Failed to reset the capture: %s", e)
        TraceRecord._recorder = None

    @staticmethod
    def trace_start(cpu_mask, output, event_cfg, buffer_size=DEFAULT_TRACE_BUFFER_SIZE):
        """Start the capture through libftscope; returns the output path. Raises on failure."""
        final_output = TraceRecord._get_final_output_path(output)
        backend = TraceRecord._ensure_backend()
        rec = ftscope.Recorder(output=final_output, cpus=cpu_mask, bf_size=buffer_size,
                               backend=backend, sched=bool(int(event_cfg.sched)),
                               irq=bool(int(event_cfg.irq)),
                               futex=bool(int(getattr(event_cfg, "futex", 0))),
                               nspid=bool(getattr(event_cfg, "nspid", False)))
        rec.start()
        TraceRecord._recorder, TraceRecord._summary = rec, None
        TraceRecord._output_path = final_output  # only a started capture has one
        h = rec.health()
        if h.get("skipped_events"):
            logging.warning("Some ftrace events are unavailable and were skipped: %s", h["skipped_events"])
        if h.get("fallback"):
            logging.info("backend: %s (%s)", h["backend"], h["fallback"])
        return final_output

    @staticmethod
    def trace_stop(output=None):
        """Stop and save; returns the saved path (moved to @output when given: a rename, never
        through a symlink). Without a running capture: the last start's path, or None."""
        rec, TraceRecord._recorder = TraceRecord._recorder, None
        if rec is None or not (rec.running or rec.output):
            logging.error("No recording found: ftrace_record_start was not called, or failed.")
            return TraceRecord._output_path
        if rec.running:
            rec.stop()
        else:
            logging.info("The capture had already been stopped and saved (at a signal or exit)")
        TraceRecord._summary = rec.summary
        path = rec.output
        _log_saved(path, rec.summary)
        if TraceRecord._backend_name == TRACE_BACKEND_TRACE_CMD and rec.summary["health"]["lost"]:
            _loss_message(TRACE_BACKEND_TRACE_CMD, rec.summary["health"]["lost"])  # checked before, live
        if output is not None:
            want = TraceRecord._get_final_output_path(output) if path.endswith(".txt") else os.fspath(output)
            if os.path.abspath(want) != os.path.abspath(path):
                try:
                    os.replace(path, want)
                    path = want
                except OSError as e:
                    logging.error("cannot move %s to %s: %s; the trace stays at %s", path, want, e, path)
        TraceRecord._output_path = None
        return path


def _log_saved(path, summary):
    h = summary["health"]
    logging.info("%s: %d events, %d bytes in %.1f s (backend %s)", path, h["events"],
                 summary["file_size"], summary["duration_s"], h.get("backend"))
    if summary.get("truncated"):
        logging.error("the capture was cut short: %s", summary.get("failure"))
    if summary.get("pid_mapping"):
        logging.info("pid mapping saved to %s", summary["pid_mapping"])


def _bad(name, why):
    logging.error("ftrace_record_start: %s %s", name, why)
    return False


def _check_start_args(cpu_mask, output, bf_size, event_cfg):
    """One logged line naming the argument, and False, for a wrong type; else True."""
    if event_cfg is not None and not isinstance(event_cfg, TraceEventConfig):
        return _bad("event_cfg", "must be a TraceEventConfig(sched=1, irq=1, futex=0), not %r" % (event_cfg,))
    if isinstance(bf_size, bool) or not (isinstance(bf_size, int) or
                                         (isinstance(bf_size, str) and bf_size.isdigit())) \
            or int(bf_size) <= 0:
        return _bad("bf_size", "must be a positive number of KB per CPU (e.g. 40960), not %r" % (bf_size,))
    if output is not None:
        if not isinstance(output, (str, bytes, os.PathLike)):
            return _bad("output", "must be a path, not %r" % (output,))
        if "\0" in os.fsdecode(output):
            return _bad("output", "contains a NUL byte: %r" % (output,))
    return True


def ftrace_record_start(cpu_mask=None, output="trace.dat", bf_size=DEFAULT_TRACE_BUFFER_SIZE,
                        event_cfg=None, args=None, backend=TRACE_BACKEND_AUTO):
    """Start recording; True when it runs, False (the reason logged) when it cannot.

    @cpu_mask "0-3,8" or a list of ints (None: all online CPUs), @output the
    trace file, @bf_size KB per CPU, @event_cfg a TraceEventConfig, @args an
    argparse namespace whose sched/irq/futex/backend/NSpid override (also
    accepted in @event_cfg's place, as the reference does), @backend auto,
    trace-cmd or debugfs. Needs root.
    """
    if not _is_root_user():
        logging.critical("Please run this script as root (recording needs root to reach tracefs)")
        return False
    if args is None and event_cfg is not None and not isinstance(event_cfg, TraceEventConfig) \
            and all(hasattr(event_cfg, k) for k in ("sched", "irq", "futex")):
        args, event_cfg = event_cfg, None
    if not _check_start_args(cpu_mask, output, bf_size, event_cfg):
        return False
    cpus = CPUParser.normalize_cpu_mask(cpu_mask)
    if cpu_mask is not None and cpus is None:
        return False
    rec = TraceRecord._recorder
    if rec is not None and rec.running:
        logging.error("ftrace_record_start: a capture is already running (to %s); stop it first",
                      TraceRecord._output_path)
        return False
    cfg = event_cfg if event_cfg is not None else TraceEventConfig()
    if args is not None:
        cfg = TraceEventConfig(args.sched, args.irq, getattr(args, "futex", 0))
        cfg.nspid = bool(getattr(args, "NSpid", False))
        backend = getattr(args, "backend", backend) or backend
    try:
        TraceRecord.configure_backend(backend)
        TraceRecord.trace_clear()
        final_output = TraceRecord.trace_start(cpus, output, event_cfg=cfg, buffer_size=int(bf_size))
    except Exception as e:  # the reference's contract: any failure is logged and gives False
        logging.error("Failed to start ftrace recording: %s", e)
        return False
    logging.info("Started ftrace recording via %s backend, output=%s", TraceRecord.get_backend_name(),
                 final_output)
    return True


def _check_trace_data_warning(output_path):
    """Warn when the capture is missing or empty (too short a recording)."""
    if output_path is None or not os.path.exists(output_path):
        logging.warning("No trace data collected: output file does not exist. %s", _NO_DATA_HINT)
        return
    try:
        size = os.path.getsize(output_path)
    except OSError as e:
        logging.warning("Failed to check trace data in %s: %s", output_path, e)
        return
    if size == 0:
        logging.warning("No trace data collected: trace file is empty (0 bytes). %s", _NO_DATA_HINT)


def _check_trace_buffer_loss_safely():
    """Our capture's loss (not the global buffer's: ours has its own instance), never raising."""
    try:
        TraceRecord._check_own_loss()
    except Exception as e:  # a loss report never stops the stop
        logging.warning("Failed to check ftrace ring buffer loss: %s", e)


def ftrace_record_stop(output=None):
    """Stop recording and save; returns the saved path (None when nothing was recording).

    Loss is checked (before the stop for trace-cmd, after it otherwise) and
    warned; an empty or missing capture is warned. A failed stop is logged,
    the capture is reset, and the exception is raised again. With @output the
    file is moved there (same filesystem) after it is written.
    """
    logging.info("Ending record, cleaning up...")
    TraceRecord._summary = None  # only this stop's summary is reported
    backend = TraceRecord.get_backend_name()
    try:
        if backend == TRACE_BACKEND_TRACE_CMD:
            _check_trace_buffer_loss_safely()
        saved = TraceRecord.trace_stop(output)
    except Exception:
        logging.exception("Failed to stop ftrace recording")
        try:
            TraceRecord.trace_reset()
        except Exception as e:
            logging.error("Failed to reset ftrace state after stop failure: %s", e)
        logging.warning("Trace buffer was not cleared because trace data may not have been saved.")
        raise
    if backend != TRACE_BACKEND_TRACE_CMD:
        _check_trace_buffer_loss_safely()
    TraceRecord.trace_clear()
    TraceRecord.trace_reset(log_stats=False)
    if saved is not None:
        logging.info("Trace data saved to %s", saved)
    logging.info("Cleanup finished")
    TraceRecord._summary = None
    _check_trace_data_warning(saved or output)
    return saved


def on_exit(signum=None, frame=None):
    """A SIGTERM handler: stop and save, then exit (status 1 when saving failed)."""
    code = 0
    try:
        ftrace_record_stop()
    except Exception as e:
        logging.error("Failed to stop ftrace recording on signal %s: %s", signum, e)
        code = 1
    raise SystemExit(code)


def _wait_for(record_time):
    """Sleep while the capture runs: @record_time s (<= 0: until Ctrl+C); Ctrl+C ends it early."""
    end = time.monotonic() + record_time if record_time > 0 else None
    try:
        while end is None or time.monotonic() < end:
            time.sleep(1 if end is None else max(0.0, min(1.0, end - time.monotonic())))
            rec = TraceRecord._recorder
            if rec is not None and rec.running:
                h = rec.health()
                if h["failed"]:
                    logging.error("recording failed: %s", h["failure"])
                    return
                logging.debug("%.0f s: %d events, lost: %s", h["elapsed_s"], h["events"], h["lost_text"])
    except KeyboardInterrupt:
        logging.info("interrupted")


def normal_mode(args):
    """The script: record args.record_time s (<= 0: until Ctrl+C), then stop; SIGTERM stops too.

    Returns what ftrace_record_stop returned (the saved path), False when nothing started.
    """
    signal.signal(signal.SIGTERM, on_exit)
    try:
        if not ftrace_record_start(args.cpu, args.output, args.bf_size, args=args):
            return False
    except KeyboardInterrupt:
        return ftrace_record_stop(args.output)
    if args.record_time <= 0:
        logging.warning("Record time equals -1, start long term record")
    _wait_for(args.record_time)
    return ftrace_record_stop(args.output)


class ContainerPidMapper:
    """Host pid -> container pid, written to @output_file (pid_mapping.json) by libftscope.

    start(None) scans once and writes; start(N) keeps the file up to date,
    rescanning every N s, until stop(), which scans once more and writes.
    pid_dict holds the last scan ({host pid (int): {"name", "NSpid", "Tgid",
    "PPid"}}). Unlike the reference, threads are mapped and every pid seen
    while running is kept.
    """

    def __init__(self, output_file="pid_mapping.json"):
        self.output_file = output_file
        self.stop_flag = threading.Event()
        self.work_thread = None   # the reference's scanning thread; ours is libftscope's
        self.pid_dict = {}
        self._mapper = None

    @staticmethod
    def get_status_value(line, index):
        """The @index-th whitespace-separated word of a /proc status line, "" when missing."""
        words = line.split()
        return words[index] if len(words) > index else ""

    def parse_process_status_file(self, file):
        """name, NSpid (innermost), Tgid and PPid from the lines of a /proc/<pid>/status."""
        status = {"name": "", "NSpid": "", "Tgid": "", "PPid": ""}
        fields = {"Name:": ("name", 1), "NSpid:": ("NSpid", 2), "Tgid:": ("Tgid", 1), "PPid:": ("PPid", 1)}
        for line in file:
            head = line.split(None, 1)[0] if line.strip() else ""
            if head in fields:
                key, index = fields[head]
                status[key] = self.get_status_value(line, index)
        return status

    def read_process_status(self, host_pid):
        """The status fields of one pid; {} when it is gone."""
        try:
            with open("/proc/%d/status" % int(host_pid), encoding="utf-8", errors="replace") as f:
                return self.parse_process_status_file(f)
        except OSError:
            return {}

    @staticmethod
    def list_all_host_pids():
        """The numeric entries of /proc, as ints."""
        try:
            return [int(e) for e in os.listdir("/proc") if e.isdigit()]
        except OSError as e:
            logging.error("Find pid status error, error=%s", e)
            return []

    def get_pid_mapping(self):
        """Scan now (processes and threads, through libftscope) into pid_dict; returns it."""
        with tempfile.TemporaryDirectory(prefix="ftscope-pidmap-") as d:
            mapping = ftscope.pidmap(os.path.join(d, "pid_mapping.json"), owner=None)
        self.pid_dict.update((int(k), v) for k, v in mapping.items())
        return self.pid_dict

    def _load(self):
        try:
            with open(self.output_file, encoding="utf-8") as f:
                self.pid_dict.update((int(k), v) for k, v in json.load(f).items())
        except (OSError, ValueError) as e:
            logging.error("Write json failed: %s", e)

    def start(self, duration=None):
        """Scan and write once (None), or keep rescanning every @duration s until stop()."""
        try:
            if duration is None:
                ftscope.pidmap(self.output_file)
                self._load()
                logging.info("Write nspid collect result to file")
                return
            self._mapper = ftscope.PidMapper(self.output_file, interval=float(duration)).start()
        except (ftscope.FtscopeError, ValueError) as e:
            self._mapper = None
            logging.error("ContainerPidMapper: %s", e)

    def stop(self):
        """Stop rescanning; scan once more and write the file."""
        self.stop_flag.set()
        m, self._mapper = self._mapper, None
        try:
            if m is None:
                ftscope.pidmap(self.output_file)
            else:
                m.stop()
                m.close()
            self._load()
            logging.info("Write nspid collect result to file")
        except ftscope.FtscopeError as e:
            logging.error("ContainerPidMapper: %s", e)

    def is_running(self):
        """True until stop() (as the reference: also before start)."""
        return not self.stop_flag.is_set()


class TraceRecordDaemon(TraceRecord):
    """The reference's rotating recorder, on ftscope's flight recorder.

    trace_record() records into complete trace.dat segments beside @output
    (<stem>.NNNNNN.dat; "ftrace.txt" gives ftrace.000001.dat, ...), a new one
    every @rotation_time s, the newest @backup_count kept (<= 0: all);
    trace_record_stop() stops and leaves the kept segments, listed in
    output_files. The reference rotated `trace-cmd show` text instead.
    """

    def __init__(self, output="ftrace.txt", rotation_time=30, backup_count=4, buffer_size=40960):
        self.rotation_time = rotation_time
        self.backup_count = backup_count
        self.output_prefix = output
        self.buffer_size = buffer_size
        self.record_process = None
        self.show_process = None
        self.show_thread = None
        self.output_files = []
        self.cur_output_file = None
        self.cur_file_path = None
        self.stop_event = threading.Event()
        self.read_end_event = threading.Event()
        self.pid_mapping_recorder = ContainerPidMapper()
        self._flight = None

    def _segment_base(self):
        stem, ext = os.path.splitext(os.fspath(self.output_prefix))
        return (stem if ext in (".txt", ".dat") else os.fspath(self.output_prefix)) + ".dat"

    def trace_record(self, cpu_mask, duration=None):
        """Start the flight recording (and the pid mapping: once, or every @duration s)."""
        cpus = CPUParser.normalize_cpu_mask(cpu_mask)
        if cpu_mask is not None and cpus is None:
            raise ValueError("cpu_mask: not a CPU list: %r" % (cpu_mask,))
        keep = int(self.backup_count) if int(self.backup_count) > 0 else 100000
        self.pid_mapping_recorder.start(duration=duration)
        self._flight = ftscope.Recorder(output=self._segment_base(), cpus=cpus, bf_size=self.buffer_size,
                                        flight_segment=float(self.rotation_time), flight_keep=keep)
        self._flight.start()
        logging.info("Start record process: segments of %s s beside %s, %d kept", self.rotation_time,
                     self._segment_base(), keep)
        self.cur_file_path = self._segment_base()

    def capture_trace_show_out(self):
        """The reference's reader of `trace-cmd show`; the flight recorder streams by itself."""
        logging.error("No trace show process found.")
        self.read_end_event.set()

    def trace_record_stop(self):
        """Stop; output_files lists the kept segments, oldest first."""
        logging.info("End trace record")
        self.stop_event.set()
        rec, self._flight = self._flight, None
        if rec is not None and rec.running:
            rec.stop()
        self.read_end_event.set()
        self.pid_mapping_recorder.stop()
        stem = self._segment_base()[:-4]
        self.output_files = sorted(p for p in glob.glob(glob.escape(stem) + ".*.dat")
                                   if p[len(stem) + 1:-4].isdigit())
        if rec is not None:
            self.cur_file_path = rec.output
            _log_saved(rec.output, rec.summary)
        return self.output_files

    def get_file_handler(self):
        """A new <output>_<epoch s> file opened for writing; files past backup_count removed."""
        self.cur_file_path = "%s_%d" % (self.output_prefix, int(time.time()))
        if self.backup_count > 0:
            self.output_files.append(self.cur_file_path)
            while len(self.output_files) > self.backup_count:
                try:
                    os.remove(self.output_files[0])
                except OSError as e:
                    logging.warning("This is an exception when remove file, exception=%s", e)
                self.output_files.pop(0)
        return open(self.cur_file_path, "wb")


def daemon_mode(args):
    """Rotate until Ctrl+C: --output, --rotation s, --backup_count, --NSpid (rescan every --duration s)."""
    daemon = TraceRecordDaemon(args.output or "ftrace.txt", getattr(args, "rotation", 30),
                               getattr(args, "backup_count", 4), getattr(args, "bf_size", 40960))
    daemon.trace_record(args.cpu, args.duration if args.NSpid else None)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        daemon.trace_record_stop()


def _flag(parser, name, **kw):
    """--a_b also as --a-b, as every ftscope flag."""
    spellings = [name] + ([name.replace("_", "-")] if "_" in name else [])
    parser.add_argument(*spellings, **kw)


def build_arg_parser():
    """The reference's flags and defaults (plus --daemon, --rotation, --backup_count)."""
    p = argparse.ArgumentParser(prog="trace_record.py",
                                description="Record scheduler/irq events (ftscope record).")
    _flag(p, "--cpu", type=str, default=None,
          help="CPU list: 0,1,4 or 0-3,8 (default: all online CPUs)")
    _flag(p, "--output", type=str, default=None,
          help="output file (default: trace.dat; trace.txt with --backend debugfs)")
    _flag(p, "--record_time", type=float, default=DEFAULT_TRACE_RECORD_TIME,
          help="seconds; <= 0 records until Ctrl+C (default 30)")
    _flag(p, "--bf_size", type=int, default=DEFAULT_TRACE_BUFFER_SIZE,
          help="ring buffer per CPU in KB (default 40960)")
    _flag(p, "--backend", choices=list(_BACKENDS), default=TRACE_BACKEND_AUTO,
          help="auto (ftscope's instance recorder), trace-cmd, or debugfs (kernel text)")
    _flag(p, "--sched", type=int, choices=[0, 1], default=1, help="sched events (default 1)")
    _flag(p, "--irq", type=int, choices=[0, 1], default=1, help="irq/softirq events (default 1)")
    _flag(p, "--futex", type=int, choices=[0, 1], default=0, help="futex syscall events (default 0)")
    _flag(p, "--NSpid", action="store_true", help="also write pid_mapping.json")
    _flag(p, "--duration", type=int, default=30,
          help="with --daemon --NSpid: rescan the pid mapping every N s (default 30)")
    _flag(p, "--daemon", action="store_true",
          help="rotate until Ctrl+C (TraceRecordDaemon): trace.dat segments beside --output")
    _flag(p, "--rotation", type=float, default=30, help="with --daemon: seconds per segment (default 30)")
    _flag(p, "--backup_count", type=int, default=4, help="with --daemon: segments kept (default 4)")
    return p


def parse_args(argv=None):
    return build_arg_parser().parse_args(argv)


def main(argv=None):
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] [%(levelname)s]:%(message)s")
    parser = build_arg_parser()
    args = parser.parse_args(argv)
    if args.cpu is not None and CPUParser.parse_cpu_arg(args.cpu) is None:
        parser.error("--cpu %r: expected a CPU list such as 0,1,4 or 0-3,8" % args.cpu)  # exit 2
    if args.daemon:
        try:
            daemon_mode(args)
        except (ftscope.FtscopeError, ValueError) as e:
            logging.error("%s", e)
            return 1
        return 0
    return 0 if normal_mode(args) else 1


if __name__ == "__main__":
    sys.exit(main())
