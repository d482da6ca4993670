#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_doc_links.py SRCDIR - every relative link of the documentation lands.

The README is short and points into docs/ and bench/README.md (issue 34 item 6),
so a moved or renamed page must not leave a dead link behind. For README.md,
bench/README.md and docs/*.md: every Markdown link `[text](target)` that is not
a URL names a file or directory that exists (relative to the page), and a
`#fragment` on a Markdown page (or on the page itself) names one of its
headings, slugged as GitHub slugs them. Code (fenced blocks, inline spans) is
not read. Prints each dead link as FILE:LINE: TARGET: why, exits 1 if any.
"""
import os
import re
import sys

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
FENCE = re.compile(r'^\s*(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')


def pages(src):
    out = [os.path.join(src, 'README.md'), os.path.join(src, 'bench', 'README.md')]
    docs = os.path.join(src, 'docs')
    out += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith('.md'))
    return out


def prose_lines(path):
    """(line number, text) of the lines outside fenced code, code spans removed."""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, CODE_SPAN.sub('', line)


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def heading_lines(path):
    """Headings with code spans kept (slugs use their text)."""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced:
                m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
                if m:
                    yield m.group(1)


def anchor_set(path, cache={}):
    if path not in cache:
        seen, out = {}, set()
        for h in heading_lines(path):
            s = slug(h)
            k = seen.get(s, 0)
            out.add(s if k == 0 else '%s-%d' % (s, k))
            seen[s] = k + 1
        cache[path] = out
    return cache[path]


def check(src):
    bad = []
    count = 0
    for page in pages(src):
        if not os.path.exists(page):
            bad.append('%s: missing page' % os.path.relpath(page, src))
            continue
        base = os.path.dirname(page)
        for n, line in prose_lines(page):
            for target in LINK.findall(line):
                if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                    continue  # a URL (https:, mailto:)
                count += 1
                where = '%s:%d: %s' % (os.path.relpath(page, src), n, target)
                path, _, frag = target.partition('#')
                dest = os.path.normpath(os.path.join(base, path)) if path else page
                if not os.path.exists(dest):
                    bad.append(where + ': no such file')
                elif frag and dest.endswith('.md') and frag not in anchor_set(dest):
                    bad.append(where + ': no heading "%s" there' % frag)
    return count, bad


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else '.'
    count, bad = check(src)
    for b in bad:
        print(b)
    if bad:
        print('check_doc_links: %d of %d links dead' % (len(bad), count))
        return 1
    print('check_doc_links: %d links, all land' % count)
    return 0


if __name__ == '__main__':
    sys.exit(main())
