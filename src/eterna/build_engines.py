"""Building a source checkout's compiled engines beside the running pure ones, with progress.

The first `make run` installs the pure package (no compilation: under a minute) and serves it
at once; the compiled engines (docs/compiled.md) are built in the background, niced, into a
staging folder (`build/engines/stage`), and their finished files are moved into place one by
one with `os.replace` (a running process keeps the files it loaded). While the build runs, its
status file (`build/engines/status.json`: pid, step, how far, since when, how long it usually
takes) makes every new process choose the pure engines and say how far the build is
(`eterna --version`, the server's start line); the next start after it finishes runs compiled.

Run by path (`python src/eterna/build_engines.py COMMAND`), so that `step` works before Eterna
is installed; it needs only the standard library (and, for `start` and `build`, the installed
package):

- `step LABEL SECONDS -- COMMAND...`: run COMMAND, saying every few seconds how long it has run,
  how long it usually takes and how far it is (pip: packages fetched); its whole output if it
  fails. The Makefile's slow steps run through it.
- `start [URL]`: start the background build unless the compiled engines are built and fresh, a
  build is under way, or the last one failed on the same sources; one line says which. With a
  URL (the server's health check), a watcher ticks every few seconds until the server that
  `make run` starts next answers there (`watch URL PID`).
- `build`: build now, in the foreground, with progress (or follow the background build to its
  end); `make build` and `make test` run it.
- `worker FD`: the background build itself (`start` runs it, holding the build lock FD).
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time
import tomllib
import urllib.request
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import IO, Any

SRC = Path(__file__).resolve().parents[1]
ROOT = SRC.parent
HOME = ROOT / "build" / "engines"  # eterna.engines.build_home() in a checkout
STATUS = HOME / "status.json"
LOG = HOME / "build.log"
STAGE = HOME / "stage"
TICK = 5.0  # seconds between two progress lines: never a silent stretch of 10 s
# How long a whole build usually takes on 2 idle cores: it measured 5 min 04 s of CPU, mypyc's
# type-checking on one core, then the C compiler on both (docs/compiled.md, "Building").
USUAL = 180.0
PROGRESS = re.compile(r"^eterna: \[(\d+)/(\d+)\] (C files compiled|extensions linked)")
WHY = ("eterna: the compiled engines could not be built", "eterna: mypyc could not compile")
PIP_FETCHED = re.compile(r"^(Collecting|Processing|Obtaining) ")


def say(line: str) -> None:
    print(f"eterna: {line}", flush=True)


def duration(seconds: float) -> str:
    return str(_engines().duration(seconds))


# --- step: any slow command, with a ticker ----------------------------------------------------


class _Output:
    """A command's output as it comes: every line kept, and what to say of its progress."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.fetched = 0
        self.installing = False

    def add(self, line: str) -> None:
        self.lines.append(line)
        if PIP_FETCHED.match(line):
            self.fetched += 1
        elif line.startswith(("Installing collected packages", "Successfully installed")):
            self.installing = True

    def detail(self) -> str:
        if self.installing:
            return f"{self.fetched} packages fetched, now installing them"
        if self.fetched:
            return f"{self.fetched} packages fetched"
        shown = [line.strip() for line in self.lines if line.strip()]
        return shown[-1][:80] if shown else ""


def run_step(label: str, usual: float, command: Sequence[str]) -> int:
    """Run `command`, ticking every TICK seconds; its output only if it fails."""
    say(f"{label} (usually about {duration(usual)})...")
    start = time.monotonic()
    output = _Output()
    process = subprocess.Popen(
        list(command), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    reader = threading.Thread(target=_read, args=(process.stdout, output.add), daemon=True)
    reader.start()
    told = start
    while process.poll() is None:
        time.sleep(0.2)
        now = time.monotonic()
        if now - told >= TICK:
            told = now
            detail = output.detail()
            say(
                f"  ... {duration(now - start)} so far (usually about {duration(usual)})"
                + (f": {detail}" if detail else "")
            )
    reader.join()
    if process.returncode != 0:
        sys.stdout.write("".join(output.lines))
        say(f"{label}: failed after {duration(time.monotonic() - start)} (its output is above)")
        return process.returncode
    say(f"{label}: done in {duration(time.monotonic() - start)}.")
    return 0


def _read(stream: IO[str] | None, add: Callable[[str], None]) -> None:
    if stream is not None:
        for line in stream:
            add(line)


# --- the build --------------------------------------------------------------------------------


def _engines() -> ModuleType:
    """eterna/engines.py, loaded on its own (it imports nothing of Eterna's): this script runs
    before the package is installed, and never loads the engines it builds."""
    loaded = sys.modules.get("_eterna_engines")
    if loaded is None:
        spec = importlib.util.spec_from_file_location(
            "_eterna_engines", SRC / "eterna" / "engines.py"
        )
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = loaded
        spec.loader.exec_module(loaded)
    return loaded


def sources_mark() -> float:
    """The newest modification among what the build is made from (a failed build is not retried
    by `start` on the same sources)."""
    engines = _engines()
    paths = [ROOT / "setup.py", SRC / "eterna" / "engines.py"]
    paths += [SRC / "eterna" / Path(*n.split(".")).with_suffix(".py") for n in engines.COMPILED]
    return max(path.stat().st_mtime for path in paths if path.exists())


def write_status(**fields: Any) -> None:
    """Replace the status file at once (a reader never sees half of it)."""
    HOME.mkdir(parents=True, exist_ok=True)
    partial = HOME / f"status.{os.getpid()}.tmp"
    partial.write_text(json.dumps(fields), encoding="utf-8")
    os.replace(partial, STATUS)


class Progress:
    """The build's status file, kept current, and its progress lines when someone watches."""

    def __init__(self, *, echo: bool) -> None:
        self.echo = echo
        self.fields: dict[str, Any] = {
            "state": "running",
            "pid": os.getpid(),
            "started": time.time(),
            "usual": USUAL,
            "log": str(LOG.relative_to(ROOT)),
            "sources": sources_mark(),
        }
        self.told = 0.0

    def step(
        self, step: str, done: int | None = None, total: int | None = None, unit: str = ""
    ) -> None:
        changed = step != self.fields.get("step")
        self.fields.update(step=step, done=done, total=total, unit=unit)
        write_status(**self.fields)
        self.tick(force=changed)

    def tick(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.echo and (force or now - self.told >= TICK):
            self.told = now
            say("  " + _engines().build_progress(self.fields))

    def fail(self, error: str) -> str:
        write_status(**{**self.fields, "state": "failed", "error": error})
        return error


def requirements() -> list[str]:
    """What the compilation needs in this environment: the build system's requirements and the
    dev extra's mypy (setup.py asks the same)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dev = config["project"]["optional-dependencies"]["dev"]
    wanted = list(config["build-system"]["requires"])
    return wanted + [r for r in dev if r.startswith("mypy==")]


def _satisfied(requirement: str) -> bool:
    """Whether this environment has `requirement` ("name", "name==1.2" or "name>=1.2")."""
    parts = re.fullmatch(r"([\w.-]+)\s*(?:(==|>=)\s*(\S+))?", requirement.strip())
    if parts is None:  # a form this does not read: let pip judge
        return False
    name, op, want = parts.groups()
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    if op == "==":
        return _numbers(have) == _numbers(want)
    return op != ">=" or _numbers(have) >= _numbers(want)


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def build(progress: Progress) -> str | None:
    """Compile the engines into the staging folder and move them into place; None when done,
    else what went wrong (the pure engines keep running either way)."""
    engines = _engines()
    missing = [r for r in requirements() if not _satisfied(r)]
    with LOG.open("a", encoding="utf-8") as log:
        if missing:
            progress.step(f"installing the compiler ({', '.join(missing)})")
            pip = [sys.executable, "-m", "pip", "install", "--no-compile", *missing]
            if _run(pip, log, progress)[0] != 0:
                return progress.fail(f"could not install {', '.join(missing)}")
        shutil.rmtree(STAGE, ignore_errors=True)
        progress.step(f"type-checking and translating {len(engines.COMPILED)} modules to C (mypyc)")
        command = [sys.executable, "setup.py", "build_ext", "--build-lib", str(STAGE)]
        command += ["--build-temp", str(HOME / "temp")]
        code, output = _run(command, log, progress)
        # setup.py says why it built nothing (no C compiler, mypyc refused) in one line
        said = [_why(line) for line in output if line.startswith(WHY)]
        if code != 0 or said:
            return progress.fail(said[-1] if said else "the compilation failed")
    built = sorted(STAGE.rglob("*.so")) + sorted(STAGE.rglob("*.pyd"))
    wanted = {f"eterna/{n.replace('.', '/')}" for n in engines.COMPILED}
    found = {p.relative_to(STAGE).as_posix().split(".")[0] for p in built}
    if not wanted <= found or not any(p.name.startswith(f"{engines.GROUP}__mypyc") for p in built):
        return progress.fail(
            f"the compilation made no complete build (see {LOG.relative_to(ROOT)})"
        )
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    with LOG.open("a", encoding="utf-8") as log:
        log.write(
            f"eterna: compiled in {duration(time.time() - progress.fields['started'])} "
            f"({duration(used.ru_utime + used.ru_stime)} of CPU)\n"
        )
    progress.step("moving the compiled modules into place")
    # the group's library last: no process picks a set that is not whole (and none picks any
    # while the status file says a build runs)
    for path in sorted(built, key=lambda p: p.name.startswith(engines.GROUP)):
        target = SRC / path.relative_to(STAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    return None


def _why(line: str) -> str:
    """setup.py's line about a build that made nothing, without what follows from it."""
    return re.split(r"; (?:the|building the) pure-Python", line.removeprefix("eterna: "))[0].strip()


def _run(command: list[str], log: IO[str], progress: Progress) -> tuple[int, list[str]]:
    """Run a step of the build, its output to the log, its counted lines to the status."""
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    lines: list[str] = []
    reader = threading.Thread(target=_read, args=(process.stdout, lines.append), daemon=True)
    reader.start()
    seen = 0
    counts = {"C": (0, 0), "e": (0, 0)}  # C files compiled, extensions linked: (done, total)
    while process.poll() is None or seen < len(lines) or reader.is_alive():
        time.sleep(0.2)
        for line in lines[seen:]:
            log.write(line)
            counted = PROGRESS.match(line)
            if counted:  # one step: the extensions link while the other files compile
                counts[counted[3][0]] = (int(counted[1]), int(counted[2]))
                (done, total), (linked, extensions) = counts["C"], counts["e"]
                unit = (
                    f"files, {linked} of {extensions} extensions linked" if extensions else "files"
                )
                progress.step("compiling C", done, total, unit)
        seen = len(lines)
        log.flush()
        progress.tick()
    return process.wait(), lines


# --- the commands -----------------------------------------------------------------------------


def _lock() -> int | None:
    """The build lock's descriptor, or None when a build holds it."""
    HOME.mkdir(parents=True, exist_ok=True)
    fd = os.open(HOME / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def start() -> int:
    """`make run`: the compiled engines in the background, when they are missing or stale."""
    engines = _engines()
    fd = _lock()
    if fd is None:
        how_far = engines.build_progress(engines.build_status() or {})
        say(f"the compiled engines are being built in the background: {how_far}.")
        return 0
    problem = engines._build_problem()
    status = engines.build_status() or {}
    if problem is None:
        os.close(fd)
        return 0
    if status.get("state") == "failed" and status.get("sources") == sources_mark():
        os.close(fd)
        say(f"the pure engines run: {problem}.")
        return 0
    LOG.write_text("", encoding="utf-8")
    with LOG.open("a", encoding="utf-8") as log:  # the worker's own words, if any: a traceback
        worker = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "worker", str(fd)],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(fd,),
            start_new_session=True,  # Ctrl+C on the server does not stop it
        )
    os.close(fd)
    write_status(
        state="running",
        pid=worker.pid,
        started=time.time(),
        usual=USUAL,
        step="starting",
        log=str(LOG.relative_to(ROOT)),
    )
    say(
        "the compiled engines (two to three times faster for bots and simulations) are being "
        f"built in the background, niced (usually about {duration(USUAL)}); the pure engines run "
        "until then and the next start runs the compiled ones. `eterna --version` says how far "
        f"it is; log: {LOG.relative_to(ROOT)}."
    )
    return 0


def worker(fd: int) -> int:
    """The background build: niced, holding the lock `start` took (until the status is gone)."""
    os.nice(19)
    progress = Progress(echo=False)
    try:
        error = build(progress)
        if error is None:
            STATUS.unlink(missing_ok=True)
    except Exception as exc:  # say it in the status too: `start` does not retry the same failure
        progress.fail(f"{type(exc).__name__}: {exc}")
        raise
    finally:
        os.close(fd)
    return 0 if error is None else 1


def build_now() -> int:
    """`make build`: the compiled engines now, or after the background build ends."""
    engines = _engines()
    fd = _lock()
    if fd is None:
        say("waiting for the background build of the compiled engines to finish...")
        while (fd := _lock()) is None:
            status = engines.build_status() or {}
            say("  " + engines.build_progress(status))
            time.sleep(TICK)
    try:
        if engines._build_problem() is None:
            say("the compiled engines are built and up to date.")
            return 0
        say(f"compiling the engines (usually about {duration(USUAL)} on 2 cores)...")
        LOG.write_text("", encoding="utf-8")
        progress = Progress(echo=True)
        error = build(progress)
        if error is not None:
            say(f"the compiled engines could not be built: {error}; log: {LOG}")
            return 1
        STATUS.unlink(missing_ok=True)
        say(f"compiled engines built in {duration(time.time() - progress.fields['started'])}.")
        return 0
    finally:
        os.close(fd)


def watch(url: str, parent: int) -> int:
    """Tick while the server `make run` starts is not answering yet (its imports and migrations
    take a few seconds, much longer on a busy machine); quiet once `url` answers, or when
    `parent` (make) is gone."""
    start = time.monotonic()
    told = start
    while time.monotonic() - start < 600 and _engines().pid_alive(parent):
        try:
            with urllib.request.urlopen(url, timeout=1):
                return 0
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
        now = time.monotonic()
        if now - told >= TICK:
            told = now
            say(f"  ... starting the web table: {duration(now - start)} so far (usually about 5 s)")
    return 0


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["step"] and len(argv) > 4 and argv[3] == "--":
        return run_step(argv[1], float(argv[2]), argv[4:])
    if argv[:1] == ["start"] and len(argv) <= 2:
        if len(argv) == 2:  # tick until the server answers there
            watcher = [sys.executable, str(Path(__file__).resolve()), "watch", argv[1]]
            subprocess.Popen([*watcher, str(os.getppid())], stdin=subprocess.DEVNULL)
        return start()
    if argv[:1] == ["watch"] and len(argv) == 3:
        return watch(argv[1], int(argv[2]))
    if argv == ["build"]:
        return build_now()
    if argv[:1] == ["worker"] and len(argv) == 2:
        return worker(int(argv[1]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
