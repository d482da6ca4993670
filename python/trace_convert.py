# SPDX-License-Identifier: MIT
"""Drop-in for the reference trace_convert.py, on ftscope's converter.

    python trace_convert.py --profiling_data=result_dir/xxx_ascend_pt --pid_mapping=pid_mapping.json

The reference's flags and defaults (--input trace.dat, --output ftrace_data.db,
--format db|json, --profiling_data, --pid_mapping), plus ftscope's
--no_cs_rows and --with_summary; the input's format is read from its content.
Also importable: convert(input, output, format, profiling_data, pid_mapping), the
reference's lane-group names and helpers (CPU_SCHED_PID, PROCESS_SCHED_PID,
KERNEL_PROCESS, tran, is_kernel_process) and validate_output_suffix. The
reference's Python parser classes are not here: the library converts
(python/README.md lists them).
"""
import argparse
import errno
import json
import logging
import os
import sys

import ftscope

log = logging.getLogger("trace_convert")

CPU_SCHED_PID = "CPU Scheduling"
PROCESS_SCHED_PID = "Process Scheduling"
KERNEL_PROCESS = ["migration", "swapper", "kworker"]
_SUFFIXES = {"db": ".db", "json": ".json"}


def tran(ts):
    """ns -> the reference's JSON microseconds text with 3 decimals ("0" for a non-number)."""
    if isinstance(ts, bool) or not isinstance(ts, (int, float)):
        logging.warning("Invalid timestamp")
        return "0"
    return "%.3f" % (ts / 1000)


def is_kernel_process(comm):
    """The reference's kernel-thread test: the name contains migration, swapper or kworker.

    ftscope itself keeps those threads (one that preempts the model is what a
    Host Bound analysis looks for); this is the reference's rule, for scripts.
    """
    if not isinstance(comm, str):
        logging.error("Param must be string")
        return False
    return any(k in comm for k in KERNEL_PROCESS)


def get_trace_event(name, pid, tid, ts, dur, args=None):
    """A Chrome "X" (complete) event as the reference builds it; args left out when None."""
    event = {"name": name, "ph": "X", "pid": pid, "tid": tid, "ts": ts, "dur": dur}
    if args is not None:
        event["args"] = args
    return event


def get_meta_event(pid, tid):
    """A Chrome "process_name" metadata event, as the reference builds it."""
    return {"name": "process_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": pid}}


class TimeFilterResult:
    """The reference's verdicts on an event's time against the profiling window."""
    OK = 0
    BEFORE_START = 1
    AFTER_END = 2


class TraceConverter:
    """The reference's converter object, on libftscope.

    parse() converts @trace_file_path (trace.dat or text; @profiling_data and
    @pid_mapping as the CLI's) and returns the Chrome trace events, the same
    lanes and names as the reference's; export(strategy, output_path) makes
    the output's directory and hands them to strategy.export(events, path).
    The reference's line parsers behind it are not here: the library parses.
    """

    def __init__(self, trace_file_path, profiling_data=None, pid_mapping=None):
        self.trace_file_path = trace_file_path
        self.file_type = "dat" if str(trace_file_path).endswith(".dat") else "txt"
        self.profiling_data = profiling_data
        self.pid_mapping = pid_mapping

    def parse(self):
        logging.info("start parse ftrace file: %s", self.trace_file_path)
        if not os.path.exists(self.trace_file_path):
            logging.critical("File not exists: %s", self.trace_file_path)
            return []
        import tempfile
        with tempfile.TemporaryDirectory(prefix="ftscope-convert-") as d:
            out = os.path.join(d, "trace_view.json")
            try:
                convert(self.trace_file_path, out, "json", self.profiling_data, self.pid_mapping, owner=None)
            except ftscope.FtscopeError as e:
                if e.errno != errno.ERANGE or "profiling window" not in str(e):
                    raise
                # The reference's answer to a trace wholly outside the profiling window: a
                # warning and the two lane groups, empty (the library refuses to write that).
                logging.warning("No ftrace events are within the profiling time window. %s", e)
                return [get_meta_event(CPU_SCHED_PID, CPU_SCHED_PID),
                        get_meta_event(PROCESS_SCHED_PID, PROCESS_SCHED_PID)]
            with open(out, encoding="utf-8") as f:
                return json.load(f)

    def export(self, strategy, output_path):
        os.makedirs(os.path.dirname(os.path.abspath(output_path)), exist_ok=True)
        strategy.export(self.parse(), output_path)


def validate_output_suffix(parser, output, output_format):
    """--format db wants a .db output, json a .json one; a mismatch is a usage error (exit 2)."""
    want = _SUFFIXES.get(output_format)
    if want is None:
        parser.error("--format must be db or json, not %r" % (output_format,))
    if output is not None and os.path.splitext(os.fspath(output))[1].lower() != want:
        parser.error("--output %s does not end in %s, which --format %s writes"
                     % (output, want, output_format))


def convert(input=None, output=None, format=None, profiling_data=None, pid_mapping=None,
            cs_rows=True, with_summary=False, owner="sudo"):
    """Convert; returns the summary dict (raises ftscope.FtscopeError)."""
    return ftscope.convert(input=input, output=output, format=format,
                           profiling_data=profiling_data, pid_mapping=pid_mapping,
                           cs_rows=cs_rows, with_summary=with_summary, owner=owner)


def build_arg_parser():
    """The reference's flags (the defaults the library picks), plus ftscope's."""
    p = argparse.ArgumentParser(prog="trace_convert.py",
                                description="Convert ftrace data for MindStudio Insight (ftscope convert).")

    def flag(*names, **kw):
        spellings = []
        for n in names:
            spellings += [n] + ([n.replace("_", "-")] if "_" in n else [])
        p.add_argument(*spellings, **kw)

    flag("-i", "--input", default=None, help="trace.dat or text (default trace.dat, else trace.txt)")
    flag("-o", "--output", default=None, help="default ftrace_data.db (.json with --format json)")
    flag("-f", "--format", default=None, choices=("db", "json"))
    flag("-p", "--profiling_data", default=None, help="Ascend profiling directory, for time alignment")
    flag("-m", "--pid_mapping", default=None, help="pid_mapping.json")
    flag("--no_cs_rows", action="store_true", help="no context-switch marker rows")
    flag("--with_summary", action="store_true", help="DB only: write Insight's task summary tables")
    return p


def parse_args(argv=None):
    """Parsed flags; --format with an --output of the other suffix exits 2 (validate_output_suffix)."""
    p = build_arg_parser()
    a = p.parse_args(argv)
    if a.format is not None:
        validate_output_suffix(p, a.output, a.format)
    return a


def main(argv=None):
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] [%(levelname)s]:%(message)s")
    a = parse_args(argv)
    try:
        s = convert(a.input, a.output, a.format, a.profiling_data, a.pid_mapping,
                    cs_rows=not a.no_cs_rows, with_summary=a.with_summary)
    except ftscope.FtscopeError as e:
        log.error("%s", e)
        return 1
    except KeyboardInterrupt:
        log.error("interrupted; nothing was written")
        return 130
    log.info("%s (%s): %d events -> %s in %.2f s: %d items, %d CPU lanes, %d task lanes",
             s["input"], s["input_format"], s["events"], s["output"], s["seconds"], s["items"],
             s["cpu_lanes"], s["task_lanes"])
    if s["aligned"]:
        log.info("aligned with %d profiling card(s); left out: %d events before the window, %d after",
                 s["cards"], s["before_window"], s["after_window"])
    if s["lost_any"]:
        log.warning("lost events: %s; the places are marked in the output", s["lost_text"])
    log.info("import %s into MindStudio Insight, in the same project as the profiling data",
             s["output"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
