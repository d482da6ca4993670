#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_man.py FTSCOPE SRCDIR - the man pages and the bash completion say what
--help says (as libtracefs's check-manpages.sh holds its pages to the library).

For every subcommand `ftscope --help` lists:
  - docs/man/ftscope-CMD.1.scd exists and ftscope.1.scd lists CMD under COMMANDS;
  - every flag `ftscope CMD --help` prints is an option entry of the page, with
    the same argument, and every option entry of the page is a flag --help
    prints;
  - the completion (completion/ftscope.bash) offers exactly those flags.
And every ftscope-X.1.scd page is a command the binary has (preview and tui
only in builds with the TUI: --no-tui).

What counts as a flag, in --help: a line indented by 1 to 7 spaces that
starts with `-x, --long ARG` or `--long ARG` (the description follows after
two spaces), and the flags of the `usage:` lines of this command. In a page:
a line of the OPTIONS section starting with `*-`, as
`*-o*, *--output* _FILE_`. Flags in prose
(another command's, an example) count in neither.
"""
import os
import re
import subprocess
import sys

FLAG = r"--?[A-Za-z][A-Za-z0-9_-]*"
TUI_ONLY = {"preview", "tui"}


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    return r.returncode, r.stdout


def commands(ftscope):
    """The subcommands `ftscope --help` lists, in order."""
    out, listing = [], False
    for line in run([ftscope, "--help"])[1].splitlines():
        if line.startswith("commands:"):
            listing = True
        elif listing and not line.strip():
            listing = False
        elif listing:
            m = re.match(r"^  ([a-z][a-z0-9_-]*) ", line)
            if m and m.group(1) not in ("help", "version"):
                out.append(m.group(1))
    return out


def norm_arg(a):
    """An argument placeholder without markup: '_NAME|PID_[,...]' -> 'NAME|PID[,...]'."""
    return re.sub(r"[*_\\]", "", a or "")


def help_flags(text, cmd):
    """{flag: argument or ''} of one command's --help text."""
    flags, usage, own = {}, False, False
    for line in text.splitlines():
        if line.startswith("usage:"):
            usage, line = True, " " + line[len("usage:"):]
        elif usage and (not line or not line[0].isspace()):
            usage = False
        if usage:
            m = re.match(r"^\s*ftscope(?:\s+(\S+))?", line)
            if m:
                own = m.group(1) == cmd
            if own:
                for m in re.finditer(r"(?:^|[\s\[])(" + FLAG + r")(?: ([^\]\[\s]+))?", line):
                    flags.setdefault(m.group(1), m.group(2) or "")
            continue
        m = re.match(r"^( {1,7})(-\S.*?)(?:  |$)", line)
        if not m:
            continue
        tok = m.group(2).split(" ")
        if re.fullmatch(r"-[A-Za-z0-9],", tok[0]) and len(tok) > 1:
            arg = tok[2] if len(tok) > 2 else ""
            flags[tok[0][:-1]] = arg
            flags[tok[1]] = arg
        else:
            flags[tok[0]] = tok[1] if len(tok) > 1 else ""
    return flags


def page_flags(path):
    """{flag: (argument, line number)} of the entries under a page's OPTIONS."""
    flags, section = {}, ""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("# "):
                section = line[2:].strip()
            if section != "OPTIONS" or not line.startswith("*-"):
                continue
            names = re.findall(r"\*(" + FLAG + r")\*", line)
            rest = re.sub(r"\*" + FLAG + r"\*,?", "", line).strip()
            for name in names:
                flags[name] = (norm_arg(rest), n)
    return flags


def page_commands(path):
    """The commands ftscope.1 lists under COMMANDS (entries '*cmd*')."""
    out, section = set(), ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# "):
                section = line[2:].strip()
            elif section == "COMMANDS":
                m = re.match(r"^\*([a-z][a-z0-9_-]*)\*", line)
                if m:
                    out.add(m.group(1))
    return out


def completion_flags(ftscope, script, cmd):
    """What the completion offers after `ftscope CMD -`."""
    bash = (f'source "{script}"; COMP_WORDS=(ftscope {cmd} -); COMP_CWORD=2; '
            'PATH="$FTS_BIN_DIR:$PATH" _ftscope; printf "%s\\n" "${COMPREPLY[@]}"')
    env = dict(os.environ, FTS_BIN_DIR=os.path.dirname(os.path.abspath(ftscope)), LC_ALL="C")
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", bash], capture_output=True,
                       text=True, env=env)
    if r.returncode:
        return None, r.stderr.strip()
    return set(x for x in r.stdout.splitlines() if x), ""


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    no_tui = "--no-tui" in sys.argv
    ftscope, src = os.path.abspath(args[0]), args[1]
    mandir = os.path.join(src, "docs", "man")
    script = os.path.join(src, "completion", "ftscope.bash")
    errors = []
    cmds = commands(ftscope)
    if not cmds:
        print(f"check_man: '{ftscope} --help' lists no commands")
        return 1

    listed = page_commands(os.path.join(mandir, "ftscope.1.scd"))
    for cmd in cmds:
        if cmd not in listed:
            errors.append(f"ftscope.1: command '{cmd}' (in 'ftscope --help') is not under COMMANDS "
                          f"in docs/man/ftscope.1.scd")
    for cmd in sorted(listed - set(cmds) - ({"help", "version"} | (TUI_ONLY if no_tui else set()))):
        errors.append(f"ftscope.1: docs/man/ftscope.1.scd lists command '{cmd}', which 'ftscope --help' does not")
    for name in sorted(os.listdir(mandir)):
        m = re.fullmatch(r"ftscope-(.+)\.1\.scd", name)
        if m and m.group(1) not in cmds and not (no_tui and m.group(1) in TUI_ONLY):
            errors.append(f"docs/man/{name}: no command '{m.group(1)}' in 'ftscope --help'")

    for cmd in cmds:
        page = os.path.join(mandir, f"ftscope-{cmd}.1.scd")
        rel = f"docs/man/ftscope-{cmd}.1.scd"
        if not os.path.exists(page):
            errors.append(f"ftscope-{cmd}.1: no page: write {rel} (every command has one)")
            continue
        rc, text = run([ftscope, cmd, "--help"])
        if rc:
            errors.append(f"'ftscope {cmd} --help' exited {rc}")
            continue
        hf, pf = help_flags(text, cmd), page_flags(page)
        for flag, arg in hf.items():
            if flag not in pf:
                entry = f"*{flag}*" + (f" _{arg}_" if arg else "")
                errors.append(f"ftscope-{cmd}.1: {flag} is in 'ftscope {cmd} --help' but not in {rel} "
                              f"(add an entry under OPTIONS: {entry})")
            elif norm_arg(arg) != pf[flag][0]:
                errors.append(f"ftscope-{cmd}.1: {flag} takes '{arg or '(nothing)'}' in --help but "
                              f"'{pf[flag][0] or '(nothing)'}' in {rel}:{pf[flag][1]}")
        for flag, (_, line) in pf.items():
            if flag not in hf:
                errors.append(f"ftscope-{cmd}.1: {flag} is in {rel}:{line} but 'ftscope {cmd} --help' "
                              f"does not print it (a flag that is gone, or --help misses it)")
        offered, err = completion_flags(ftscope, script, cmd)
        if offered is None:
            errors.append(f"completion: _ftscope failed for 'ftscope {cmd} -': {err}")
            continue
        for flag in sorted(set(hf) - offered):
            errors.append(f"completion: 'ftscope {cmd} -<Tab>' does not offer {flag} (--help prints it)")
        for flag in sorted(offered - set(hf)):
            errors.append(f"completion: 'ftscope {cmd} -<Tab>' offers {flag}, which --help does not print")
        print(f"ftscope {cmd}: {len(hf)} flags in --help checked against {rel} and the completion")

    for e in errors:
        print("FAIL " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
