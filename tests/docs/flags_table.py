"""Rewrites the "## Flags" section of docs/operations.md from
`gridstar-server --help` (the flags grouped as the server groups them, each
with its default). DocsStayTrue fails while a flag or default is missing.

    /usr/bin/python3 tests/docs/flags_table.py build/release
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def table(help_text):
    out, cur = [], None

    def flush():
        if cur:
            name, default, what = cur
            shown = f"`{default}`" if default else "(empty)"
            out.append(f"| `--{name}` | {shown} | {what.replace('|', '/')} |")

    for line in help_text.split("\n"):
        if re.match(r"^[A-Z][A-Za-z ,()]*:$", line):
            flush()
            cur = None
            out.append(f"\n### {line[:-1]}\n\n| flag | default | what it does |\n|---|---|---|")
            continue
        m = re.match(r"^  --(\S+) \(default (.*)\)$", line)
        if m:
            flush()
            cur = [m.group(1), m.group(2).strip('"'), ""]
        elif line.startswith("      ") and cur:
            cur[2] += (" " if cur[2] else "") + line.strip()
        else:
            flush()
            cur = None
    flush()
    return "\n".join(out) + "\n"


def main():
    build = sys.argv[1]
    help_text = subprocess.run([os.path.join(build, "server", "gridstar-server"), "--help"],
                               capture_output=True, text=True, check=True).stdout
    path = os.path.join(ROOT, "docs", "operations.md")
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start = doc.index("## Flags\n") + len("## Flags\n")
    end = doc.index("## The server in production")
    doc = doc[:start] + table(help_text) + "\n" + doc[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc)


if __name__ == "__main__":
    main()
