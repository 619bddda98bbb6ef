#!/usr/bin/env python3
"""Runs a command and prints what it cost: wall time, peak resident memory
and, with --watch DIR, the bytes DIR holds at the end; with --timeout S the
command is killed after S seconds (and said to have not finished).

  measure_run.py [--cwd DIR] [--timeout S] [--watch DIR] -- CMD [ARGS...]

Prints one line: `status=done|timeout|failed:CODE wall_s=... max_rss_mb=...
[dir_mb=...]`. The peak resident memory is sampled every 50 ms from
/proc/PID/status (VmHWM) while the command runs and taken from the kernel's
rusage at its end (also when it was killed). Exits 0 whatever the command did: the
caller reads the status.
"""
import os
import subprocess
import sys
import time


def dir_bytes(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(d, f))
            except OSError:
                pass
    return total


def peak_kb(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    args = sys.argv[1:]
    cwd, timeout, watch = None, None, None
    while args and args[0] != "--":
        flag, value = args[0], args[1]
        args = args[2:]
        if flag == "--cwd":
            cwd = value
        elif flag == "--timeout":
            timeout = float(value)
        elif flag == "--watch":
            watch = value
        else:
            sys.exit(f"measure_run.py: unknown flag {flag}")
    if not args or len(args) < 2:
        sys.exit("usage: measure_run.py [--cwd DIR] [--timeout S] [--watch DIR] -- CMD ...")
    command = args[1:]
    started = time.monotonic()
    child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    peak = 0
    status = None
    while status is None:
        peak = max(peak, peak_kb(child.pid))
        pid, code, usage = os.wait4(child.pid, os.WNOHANG)
        if pid != 0:
            # The kernel's own peak for the whole run (ru_maxrss, in KiB).
            peak = max(peak, usage.ru_maxrss)
            code = os.waitstatus_to_exitcode(code)
            status = "done" if code == 0 else f"failed:{code}"
            child.returncode = code
        elif timeout is not None and time.monotonic() - started > timeout:
            child.kill()
            _, _, usage = os.wait4(child.pid, 0)
            peak = max(peak, usage.ru_maxrss)
            child.returncode = -9
            status = "timeout"
        else:
            time.sleep(0.05)
    wall = time.monotonic() - started
    line = f"status={status} wall_s={wall:.2f} max_rss_mb={peak / 1024:.1f}"
    if watch is not None:
        line += f" dir_mb={dir_bytes(watch) / 2**20:.1f}"
    print(line)


if __name__ == "__main__":
    main()
