"""Start-up and idle cost of ``pegboard serve --sim``: what a new user waits for, and what
the service costs the Pi while nobody plays.

- Cold start: from launching the command to the first answer of ``/healthz``, median of
  RUNS fresh processes, each with a new data folder. Goal <= 1.5 s.
- RSS once idle (``VmRSS`` of /proc/PID/status, after SETTLE s). Goal <= 60 MB.
- Idle CPU over IDLE s (utime + stime of /proc/PID/stat), and which threads wake up how
  often (voluntary context switches): no busy loops. In ``--sim`` the emulated Pico's
  firmware runs inside the service and polls its port every 20 ms as the real chip
  does; gpiozero's hold-time watcher wakes 10 times a second per button.

Run: ``python -m benchmarks start`` (or ``python benchmarks/bench_start.py``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

RUNS = 7
SETTLE = 2.0  # seconds after the first answer before RSS is read
IDLE = 10.0  # seconds of idle CPU measured
GOAL_START_S = 1.5
GOAL_RSS_MB = 60.0
TICK = os.sysconf("SC_CLK_TCK")


def command(data: Path) -> list[str]:
    """``pegboard serve --sim`` as a user runs it: the console script next to this python."""
    script = Path(sys.executable).with_name("pegboard")
    launcher = [str(script)] if script.exists() else [sys.executable, "-m", "pegboard.cli"]
    return [*launcher, "serve", "--sim", "--port", "0", "--data", str(data)]


def start(data: Path) -> tuple[subprocess.Popen, float, float]:
    """Launch the service; return it, seconds to its "panel at" line and to /healthz."""
    began = time.perf_counter()
    with (data.parent / f"{data.name}.stderr").open("w") as log:  # the child keeps its own
        server = subprocess.Popen(command(data), stdout=subprocess.PIPE, stderr=log, text=True)
    line = server.stdout.readline()
    printed = time.perf_counter() - began
    match = re.search(r"panel at http://[^/]+:(\d+)/", line)
    if not match:
        server.kill()
        sys.exit(f"the service did not start: {line!r}")
    url = f"http://127.0.0.1:{match.group(1)}/healthz"
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                answer.read()
            return server, printed, time.perf_counter() - began
        except OSError:
            if time.perf_counter() - began > 30:
                server.kill()
                sys.exit("no answer from /healthz within 30 s")
            time.sleep(0.002)


def stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=15)


def status_kb(pid: int, field: str) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.MULTILINE).group(1))


def cpu_seconds(stat_path: str) -> float:
    fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def threads(pid: int) -> dict[str, tuple[int, float]]:
    """Each thread's voluntary context switches (wakeups) and CPU seconds so far."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        text = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        woke = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", text, re.M).group(1))
        out[tid] = (woke, cpu_seconds(f"/proc/{pid}/task/{tid}/stat"))
    return out


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="pegboard-bench-start-"))
    try:
        starts, lines = [], []
        for run in range(RUNS):
            server, printed, answered = start(folder / f"data{run}")
            lines.append(printed)
            starts.append(answered)
            if run < RUNS - 1:
                stop(server)
        time.sleep(SETTLE)  # the last one stays up: measure it idle
        pid = server.pid
        rss_mb = status_kb(pid, "VmRSS") / 1024
        peak_mb = status_kb(pid, "VmHWM") / 1024
        cpu0, each0, t0 = cpu_seconds(f"/proc/{pid}/stat"), threads(pid), time.perf_counter()
        time.sleep(IDLE)
        cpu1, each1, t1 = cpu_seconds(f"/proc/{pid}/stat"), threads(pid), time.perf_counter()
        stop(server)
        logs = [path.read_text() for path in sorted(folder.glob("*.stderr"))]
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    span = t1 - t0
    idle_cpu = (cpu1 - cpu0) / span
    before = {tid: each0.get(tid, (0, 0.0)) for tid in each1}
    busy = sorted(
        (((each1[t][0] - before[t][0]) / span, (each1[t][1] - before[t][1]) / span) for t in each1),
        reverse=True,
    )  # (wakeups per second, share of a core), busiest first
    rates = [rate for rate, _ in busy]
    median = statistics.median(starts)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"`pegboard {' '.join(command(Path('DATA'))[-6:])}`, {RUNS} cold starts")
    print(f"(load average now: {load}; other work on the machine slows the starts)")
    print(
        f"cold start to /healthz  median {median:.3f} s  min {min(starts):.3f} s  "
        f"max {max(starts):.3f} s  (to the 'panel at' line: {statistics.median(lines):.3f} s)"
    )
    print(
        f"cold start / goal ({GOAL_START_S:g} s): {median / GOAL_START_S:.3f}",
        verdict(median, GOAL_START_S),
    )
    print(
        f"RSS idle {rss_mb:.1f} MB (peak {peak_mb:.1f} MB); / goal ({GOAL_RSS_MB:g} MB): "
        f"{rss_mb / GOAL_RSS_MB:.3f}",
        verdict(rss_mb, GOAL_RSS_MB),
    )
    print(f"idle CPU over {span:.0f} s: {idle_cpu:.2%} of one core ({len(each1)} threads)")
    woken = ", ".join(f"{rate:.1f}" for rate in rates if rate >= 1)
    print(f"threads waking >= 1/s, wakeups per second: {woken or 'none'}; all: {sum(rates):.0f}/s")
    print(
        f"the busiest thread ({rates[0]:.0f} wakeups/s, in --sim the emulated Pico's firmware): "
        f"{busy[0][1]:.2%} of a core; all the others: {idle_cpu - busy[0][1]:.2%}"
    )
    failed = [log for log in logs if "Traceback" in log]
    print(f"tracebacks on stderr (SIGTERM right after the answer): {len(failed)} of {RUNS} runs")
    if failed:
        print("  first: " + failed[0].strip().splitlines()[-1])


def verdict(value: float, goal: float) -> str:
    return "(met)" if value <= goal else "(MISSED)"


if __name__ == "__main__":
    main()
