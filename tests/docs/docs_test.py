"""The documentation stays true: the README's layout table matches the tree,
every `gridstar` command line and every code block of the README and docs/
runs against a real server, every server flag is in docs/operations.md with
its default, every relative link resolves, no document names a path outside
the repository but ../shared, and nothing in the repository speaks of the
project's internal bookkeeping.

Run by CTest as: /usr/bin/python3 tests/docs/docs_test.py BUILD_DIR
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = None
GENEROUS_S = 600


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def documents():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT)
                                  for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def blocks(text, language):
    """The contents of the ```language fenced blocks, in order."""
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, re.S | re.M)


def commands(block):
    """The block's lines with continuations joined, comments dropped."""
    out, line = [], ""
    for raw in block.splitlines():
        line += raw.rstrip()
        if line.endswith("\\"):
            line = line[:-1] + " "
            continue
        code = re.sub(r"\s+#.*$", "", line).strip()
        if code:
            out.append(code)
        line = ""
    return out


class Server:
    """gridstar-server with the sample maps, as scripts/run.sh starts it, and
    its HTTP/JSON port on a free port (`http` is 127.0.0.1:PORT)."""

    def __init__(self, tmp):
        stamp = time.monotonic_ns()
        port_file = os.path.join(tmp, f"port.{stamp}")
        log = os.path.join(tmp, f"log.{stamp}")
        sample = os.path.join(ROOT, "data", "sample")
        with open(log, "w", encoding="utf-8") as err:
            self.process = subprocess.Popen(
                [os.path.join(BUILD, "server", "gridstar-server"), "--host=127.0.0.1",
                 "--port=0", "--metrics_port=0", "--http_port=-1", "--workers=2",
                 f"--port_file={port_file}",
                 f"--preload=dungeon={sample}/dungeon.map,terrain={sample}/terrain.pgm"],
                stdout=subprocess.DEVNULL, stderr=err)
        for _ in range(GENEROUS_S * 50):
            if os.path.exists(port_file) or self.process.poll() is not None:
                break
            time.sleep(0.02)
        with open(port_file, encoding="ascii") as f:
            self.target = "127.0.0.1:" + f.read().strip()
        # The port file is written after the start is logged.
        with open(log, encoding="utf-8") as f:
            self.http = "127.0.0.1:" + re.search(r"HTTP/JSON on :(\d+)", f.read()).group(1)

    def stop(self):
        self.process.kill()
        self.process.wait()


class DocsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        # Commands run where `data/` is the repository's, writing elsewhere.
        os.symlink(os.path.join(ROOT, "data"), os.path.join(self.tmp, "data"))
        os.symlink(os.path.join(ROOT, "proto"), os.path.join(self.tmp, "proto"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_readme_is_a_short_guide(self):
        readme = read("README.md")
        self.assertLessEqual(len(readme.splitlines()), 250)
        first_screen = "\n".join(readme.splitlines()[:20])
        self.assertIn("./scripts/run.sh", first_screen)
        self.assertIn("./scripts/test.sh", first_screen)

    def test_layout_table_matches_the_tree(self):
        readme = read("README.md")
        table = readme[readme.index("## What is here"):readme.index("## Documentation")]
        named = re.findall(r"^\| `([^`]+)` \|", table, re.M)
        self.assertGreater(len(named), 8)
        for path in named:
            self.assertTrue(os.path.exists(os.path.join(ROOT, path.rstrip("/"))), path)
        tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout.split()
        top = {p.split("/")[0] for p in tracked if "/" in p}
        listed = {p.rstrip("/").split("/")[0] for p in named}
        self.assertEqual(sorted(top - listed), [], "directories the table does not name")

    def test_every_server_flag_is_in_operations_with_its_default(self):
        out = subprocess.run([os.path.join(BUILD, "server", "gridstar-server"), "--show_config"],
                             capture_output=True, text=True, check=True).stdout
        operations = read("docs/operations.md")
        flags = re.findall(r"^--([a-z_0-9]+)=(.*)$", out, re.M)
        self.assertGreater(len(flags), 30)
        for name, default in flags:
            with self.subTest(name):
                shown = f"`{default}`" if default else "(empty)"
                self.assertIn(f"| `--{name}` | {shown} |", operations)

    def test_links_resolve_and_no_path_leaves_the_repository(self):
        for doc in documents():
            text = read(doc)
            here = os.path.dirname(os.path.join(ROOT, doc))
            for target in re.findall(r"\]\(([^)#\s]+)", text):
                if re.match(r"[a-z]+://", target):
                    continue
                path = os.path.normpath(os.path.join(here, target))
                with self.subTest(doc=doc, link=target):
                    self.assertTrue(path.startswith(ROOT + os.sep), "leaves the repository")
                    self.assertTrue(os.path.exists(path), "no such file")
            for bad in re.findall(r"(?:/tmp/|/work/|/home/|/root/)\S*", text):
                self.fail(f"{doc} names {bad}")
            # Paths in text are relative to the repository's root (where
            # the commands run); links were checked above.
            for m in re.finditer(r"(?<!\]\()(?<![\w/.])\.\./[\w./-]+", text):
                with self.subTest(doc=doc, path=m.group(0)):
                    self.assertTrue(m.group(0).startswith("../shared"),
                                    "names a path outside the repository")

    def test_nothing_speaks_of_internal_bookkeeping(self):
        found = subprocess.run(
            ["git", "grep", "-n", "-i", "-E", r"\bstops? [0-9]+\b|work session", "--", ".",
             ":!tests/docs/docs_test.py"],
            cwd=ROOT, capture_output=True, text=True).stdout
        self.assertEqual(found, "")

    def run_lines(self, program, command_of):
        """Runs every `program ...` line of the documents' sh blocks as
        command_of(server, rest of the line) makes it, against one real
        server per document; each must exit 0. Returns them, each with its
        output."""
        ran = []
        for doc in documents():
            server = Server(self.tmp)
            try:
                for block in blocks(read(doc), "sh"):
                    for line in commands(block):
                        if not line.startswith(program + " "):
                            continue
                        with self.subTest(doc=doc, line=line):
                            out = subprocess.run(
                                command_of(server, line[len(program) + 1:]), shell=True,
                                cwd=self.tmp, capture_output=True, text=True,
                                timeout=GENEROUS_S)
                            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                            ran.append((doc, line, out.stdout))
            finally:
                server.stop()
        return ran

    def test_every_cli_line_runs_against_a_real_server(self):
        cli = os.path.join(BUILD, "client", "gridstar")
        ran = self.run_lines("gridstar", lambda server, rest:
                             f"{cli} --server={server.target} {rest}")
        self.assertGreaterEqual(len(ran), 15)

    def test_every_curl_line_answers_200_from_a_real_server(self):
        ran = self.run_lines("curl", lambda server, rest:
                             "curl -w '\\n%{http_code}' --max-time 600 " +
                             rest.replace("localhost:8080", server.http))
        for doc, line, stdout in ran:
            with self.subTest(doc=doc, line=line):
                self.assertEqual(stdout.rsplit("\n", 1)[-1], "200", stdout)
        self.assertGreaterEqual(len(ran), 5)

    def test_readme_code_blocks_run(self):
        readme = read("README.md")
        server = Server(self.tmp)
        try:
            # The stub generation of "From any gRPC language".
            for block in blocks(readme, "sh"):
                for line in commands(block):
                    if line.startswith("protoc "):
                        os.makedirs(os.path.join(self.tmp, "stubs"), exist_ok=True)
                        out = subprocess.run(line, shell=True, cwd=self.tmp,
                                             capture_output=True, text=True)
                        self.assertEqual(out.returncode, 0, out.stderr)
            python = blocks(readme, "python")
            self.assertGreaterEqual(len(python), 2)
            env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
            for code in python:
                with self.subTest(code=code[:60]):
                    out = subprocess.run(
                        ["/usr/bin/python3", "-c", code.replace("127.0.0.1:50051", server.target)],
                        cwd=self.tmp, env=env, capture_output=True, text=True,
                        timeout=GENEROUS_S)
                    self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                    self.assertTrue(out.stdout.strip(), "printed nothing")
        finally:
            server.stop()


def main():
    global BUILD
    BUILD = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
