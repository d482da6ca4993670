# SPDX-License-Identifier: MIT
"""Drop-in for the reference trace_convert.py, on ftscope's converter.

    python trace_convert.py --profiling_data=result_dir/xxx_ascend_pt --pid_mapping=pid_mapping.json

The reference's flags and defaults (--input trace.dat, --output ftrace_data.db,
--format db|json, --profiling_data, --pid_mapping), plus ftscope's
--no_cs_rows and --with_summary; the input's format is read from its content.
Also importable: convert(input, output, format, profiling_data, pid_mapping).
"""
import argparse
import logging
import sys

import ftscope

log = logging.getLogger("trace_convert")


def convert(input=None, output=None, format=None, profiling_data=None, pid_mapping=None,
            cs_rows=True, with_summary=False):
    """Convert; returns the summary dict (raises ftscope.FtscopeError)."""
    return ftscope.convert(input=input, output=output, format=format,
                           profiling_data=profiling_data, pid_mapping=pid_mapping,
                           cs_rows=cs_rows, with_summary=with_summary)


def parse_args(argv=None):
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
    return p.parse_args(argv)


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
