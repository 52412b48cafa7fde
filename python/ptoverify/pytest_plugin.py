"""pytest plugin: every kernel file is a test item that ptoverify checks.

    pytest --ptoverify out/kernels                      # each kernel under out/kernels is an item
    pytest --ptoverify out/ --ptoverify-args="--rules sync-* -- -Iinclude"

An item (`out/kernels/ring_step_bad.pto::ptoverify`, marker `ptoverify`) fails with the file's
findings in ptoverify's text format; an input the tool cannot read is an error. Items are checked
in batches, one `ptoverify check` per batch (under pytest-xdist, per worker); a .pto or .mlir file
that passed and has not changed since passes from pytest's cache (`--cache-clear` rechecks).
Tests check a kernel they write themselves with the `ptoverify_check` fixture.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shlex
import tempfile
import time
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

import ptoverify

KERNEL_SUFFIXES = (".pto", ".mlir", ".cpp", ".cc", ".cxx")
# A C++ kernel's headers are not in its content hash, so only these formats pass from the cache.
CACHED_SUFFIXES = (".pto", ".mlir")
MAX_BATCH = 1000  # files per ptoverify process, far below the command line's limit
SEVERITY = {"note": 0, "warning": 1, "error": 2}


def pytest_addoption(parser):
    group = parser.getgroup("ptoverify", "check NPU kernels with ptoverify, one test item per file")
    group.addoption("--ptoverify", action="append", default=[], metavar="PATH",
                    help="collect the kernel files under PATH (a directory or file; repeatable) as test items")
    group.addoption("--ptoverify-args", default=None, metavar="ARGS",
                    help="more `ptoverify check` arguments, e.g. \"--rules sync-* -- -Iinclude\" "
                         "(replaces the ptoverify_args ini option)")
    parser.addini("ptoverify_paths", type="paths", default=[],
                  help="kernel directories or files (relative to the ini file) collected as with --ptoverify")
    parser.addini("ptoverify_args", default="", help="more `ptoverify check` arguments for every item")


def pytest_configure(config):
    config.addinivalue_line("markers", "ptoverify: a kernel file checked by ptoverify")
    here = config.invocation_params.dir
    roots = [Path(os.path.abspath(here / p)) for p in config.getoption("--ptoverify")]
    roots += [Path(os.path.abspath(p)) for p in config.getini("ptoverify_paths")]
    _add_to_collection(config, roots)
    config.pluginmanager.register(_Checker(config, roots), "ptoverify-checker")


def _add_to_collection(config, roots):
    """The kernel paths are collected even when pytest walks only other arguments (one the
    session has yet to write is looked at after the tests)."""
    here = config.invocation_params.dir
    given = {os.path.abspath(here / a.split("::")[0]) for a in config.args}
    for root in roots:
        if str(root) not in given and root.exists():
            config.args.append(str(root))


class KernelInputError(Exception):
    """ptoverify could not read the kernel (or failed itself): the item is an error."""


class KernelFindings(Exception):
    """ptoverify reported findings that fail the kernel."""


class KernelFile(pytest.File):
    def collect(self):
        yield KernelItem.from_parent(self, name="ptoverify")


class KernelItem(pytest.Item):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_marker("ptoverify")
        self.verdict = None

    def setup(self):
        # In setup, so that an input ptoverify cannot read is an error, not a failure.
        self.verdict = self.config.pluginmanager.get_plugin("ptoverify-checker").verdict(self)
        if self.verdict.errors:
            raise KernelInputError(self.verdict.errors)

    def runtest(self):
        if self.verdict.cached:
            self.add_report_section("call", "ptoverify", "unchanged since it passed: pytest's cache")
        if self.verdict.failed:
            raise KernelFindings(self.verdict.text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (KernelFindings, KernelInputError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, self.nodeid


@dataclass
class Verdict:
    failed: bool = False
    text: str = ""  # the findings as ptoverify's text report writes them
    errors: str = ""  # why the kernel could not be checked
    cached: bool = False


class _Checker:
    """Collects kernel files and checks them a batch at a time."""

    def __init__(self, config, roots):
        self.config = config
        self.roots = roots
        args = config.getoption("--ptoverify-args")
        self.args = shlex.split(config.getini("ptoverify_args") if args is None else args)
        self.verdicts = {}  # str(path) -> Verdict
        self.fingerprints = {}  # str(path) -> cache fingerprint, or None when not cacheable
        workerinput = getattr(config, "workerinput", None)
        self.shared = (workerinput or {}).get("ptoverify_shared")  # xdist: claims and verdicts
        self.workers = (workerinput or {}).get("workercount", 1)
        self.made_shared = None
        self.collected = set()  # str(path) of every kernel file collected
        self.items = []  # this run's kernel items in order, where a batch looks for more to check

    # Collection

    def pytest_collect_file(self, file_path, parent):
        if file_path.suffix in KERNEL_SUFFIXES and self._under_root(file_path):
            self.collected.add(str(file_path))
            return KernelFile.from_parent(parent, path=file_path)
        return None

    def _under_root(self, path):
        path = Path(os.path.abspath(path))
        return any(path == r or r in path.parents for r in self.roots)

    def pytest_collection_finish(self, session):
        self.items = [it for it in session.items if isinstance(it, KernelItem)]

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtestloop(self, session):
        """After the tests, the kernels they wrote under a --ptoverify path are items too."""
        yield
        xdist_controller = self.config.pluginmanager.has_plugin("dsession")  # it collects nothing itself
        if self.shared or xdist_controller or session.shouldfail or session.shouldstop or self.config.option.collectonly:
            return
        late = [p for p in self._kernel_files() if str(p) not in self.collected]
        items = [it for p in late for it in KernelFile.from_parent(session, path=p).collect()]
        if not items:
            return
        self.config.hook.pytest_collection_modifyitems(session=session, config=self.config, items=items)
        self.items += items
        for i, item in enumerate(items):
            item.ihook.pytest_runtest_protocol(item=item, nextitem=items[i + 1] if i + 1 < len(items) else None)

    def _kernel_files(self):
        for root in self.roots:
            if root.is_file() and root.suffix in KERNEL_SUFFIXES:
                yield root
            elif root.is_dir():
                yield from sorted(p for p in root.rglob("*") if p.suffix in KERNEL_SUFFIXES and p.is_file())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        # pytest reports an error in setup with its traceback; the tool's messages say it all.
        outcome = yield
        if isinstance(item, KernelItem) and call.excinfo and call.excinfo.errisinstance(KernelInputError):
            outcome.get_result().longrepr = str(call.excinfo.value)

    # pytest-xdist: the controller gives its workers one directory to share

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node):
        if self.made_shared is None:
            self.made_shared = tempfile.mkdtemp(prefix="ptoverify-xdist-")
        node.workerinput["ptoverify_shared"] = self.made_shared

    def pytest_unconfigure(self, config):
        if self.made_shared:
            shutil.rmtree(self.made_shared, ignore_errors=True)

    # Checking

    def verdict(self, item):
        key = str(item.path)
        if self._passed_before(item):
            return Verdict(cached=True)
        if key not in self.verdicts:
            if self.shared:
                self._check_shared(item)
            else:
                self._check(self._batch(item, MAX_BATCH))
        v = self.verdicts[key]
        cache = getattr(self.config, "cache", None)
        if cache is not None and self._fingerprint(item):
            cache.set(_cache_key(item.path), None if (v.failed or v.errors) else self._fingerprint(item))
        return v

    def _batch(self, item, limit):
        """`item`, then the items after it (then before it) still to check, at most `limit`."""
        items = [it for it in self.items if str(it.path) not in self.verdicts]
        start = items.index(item) if item in items else 0
        todo = [it for it in items[start:] + items[:start] if not self._passed_before(it)]
        if item not in todo:
            todo.insert(0, item)
        return todo[:max(1, min(limit, MAX_BATCH))]

    def _check_shared(self, item):
        """Under xdist: claim a worker's share of the unchecked files, or wait for the worker that
        claimed this one."""
        if not self._claim(item):
            if self._wait(item):
                return
            self._check([item])
            return
        unchecked = [it for it in self.items if not self._passed_before(it)]
        share = min(MAX_BATCH, math.ceil(len(unchecked) / max(1, self.workers)))
        batch = [item]
        for it in self._batch(item, len(unchecked))[1:]:
            if len(batch) >= share:
                break
            if self._claim(it):
                batch.append(it)
        self._check(batch)

    def _claim(self, item):
        try:
            fd = os.open(self._shared_file(item, ".claim"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return False
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True

    def _wait(self, item):
        """The verdict another worker writes for `item`; False when that worker is gone."""
        done, claim = self._shared_file(item, ".json"), self._shared_file(item, ".claim")
        while not os.path.exists(done):
            try:
                os.kill(int(Path(claim).read_text() or 0), 0)
            except (ValueError, ProcessLookupError):
                return False
            except PermissionError:
                pass
            time.sleep(0.02)
        self.verdicts[str(item.path)] = Verdict(**json.loads(Path(done).read_text()))
        return True

    def _shared_file(self, item, suffix):
        return os.path.join(self.shared, hashlib.sha1(str(item.path).encode()).hexdigest() + suffix)

    def _check(self, items):
        here = self.config.invocation_params.dir
        paths = [os.path.relpath(it.path, here) for it in items]
        try:
            cmd = [ptoverify.executable(), "check", *paths, "--format", "json", "--color", "never", *self.args]
            report, _ = ptoverify.json_report(cmd, cwd=here)
            verdicts = _split(report, paths, self._fails_on)
        except ptoverify.PtoverifyError as e:
            verdicts = {p: Verdict(errors=str(e)) for p in paths}
        for it, p in zip(items, paths):
            self.verdicts[str(it.path)] = verdicts[p]
            if self.shared:
                done = self._shared_file(it, ".json")
                Path(done + ".tmp").write_text(json.dumps(asdict(verdicts[p])))
                os.replace(done + ".tmp", done)

    def _fails_on(self, path):
        """The lowest severity that fails `path`, and whether an undecided proof fails it."""
        return SEVERITY.get(_fail_on(self.args, path), 1), "--strict" in _own_args(self.args)

    # pytest's cache

    def _passed_before(self, item):
        cache = getattr(self.config, "cache", None)
        fp = self._fingerprint(item)
        return bool(fp) and cache is not None and cache.get(_cache_key(item.path), None) == fp

    def _fingerprint(self, item):
        """What a pass depends on: the file, the tool, its arguments and the configuration file."""
        key = str(item.path)
        if key not in self.fingerprints:
            self.fingerprints[key] = None
            if item.path.suffix in CACHED_SUFFIXES:
                try:
                    self.fingerprints[key] = _fingerprint(item.path, self.args)
                except (OSError, ptoverify.PtoverifyError):
                    pass
        return self.fingerprints[key]


def _cache_key(path):
    return "ptoverify/passed/" + hashlib.sha1(str(path).encode()).hexdigest()


def _fingerprint(path, args):
    h = hashlib.sha256()
    exe = shutil.which(ptoverify.executable()) or ptoverify.executable()
    st = os.stat(exe)
    h.update(f"{os.path.realpath(exe)}\0{st.st_size}\0{st.st_mtime_ns}\0{args}\0".encode())
    h.update(Path(path).read_bytes())
    config = _config_file(args, path)
    h.update(b"\0" + (Path(config).read_bytes() if config else b""))
    return h.hexdigest()


def _own_args(args):
    """The arguments for ptoverify itself (those after `--` are the compiler's)."""
    return args[:args.index("--")] if "--" in args else args


def _option(args, name):
    own = _own_args(args)
    for i, a in enumerate(own):
        if a == name and i + 1 < len(own):
            return own[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def _config_file(args, path):
    """The configuration ptoverify reads for `path`: --config, else the .ptoverify.yaml above it."""
    explicit = _option(args, "--config")
    if explicit:
        return explicit
    for d in Path(os.path.abspath(path)).parents:
        if (d / ".ptoverify.yaml").is_file():
            return str(d / ".ptoverify.yaml")
    return None


def _fail_on(args, path):
    level = _option(args, "--fail-on")
    if level:
        return level
    config = _config_file(args, path)
    if config:
        try:
            m = re.search(r"^fail-on:\s*['\"]?(\w+)", Path(config).read_text(), re.M)
        except OSError:
            m = None
        if m:
            return m.group(1)
    return "warning"


def _split(report, paths, fails_on):
    """One Verdict per path from a batch's JSON report."""
    out = {p: Verdict() for p in paths}
    lines = {p: [] for p in paths}
    owner = {os.path.normpath(p): p for p in paths}
    for d in report.get("inputDiagnostics", []):
        loc = d.get("location")
        p = owner.get(os.path.normpath(loc["file"])) if loc else None
        targets = [p] if p else [q for q in paths if q in d.get("message", "")] or paths
        text = (f"{_loc(loc)}: " if loc else "") + (f"{d['level']}: " if loc else "") + d.get("message", "")
        for q in targets:
            if d.get("level") == "error":
                out[q].errors += text + "\n"
            else:
                lines[q].append(text)
    findings = iter(report.get("findings", []))
    for f in report.get("files", []):
        p = owner.get(os.path.normpath(f.get("path", "")))
        for _ in range(f.get("findings", 0)):
            x = next(findings)
            if p is None:
                continue
            lines[p] += _finding_lines(x)
            least, strict = fails_on(p)
            if x["level"] == "unknown" and strict or x["level"] != "unknown" and SEVERITY.get(x.get("severity"), 2) >= least:
                out[p].failed = True
    for p in paths:
        out[p].text = "\n".join(lines[p])
    return out


def _loc(loc):
    return f"{loc.get('file', '')}:{loc.get('line', 0)}:{loc.get('col', 0)}"


def _finding_lines(x):
    """A finding as ptoverify's text report writes it: the finding, then its notes."""
    at = _loc(x.get("location", {}))
    grade = x["grade"] + ": " if x.get("grade") else ""
    out = [f"{at}: {x['level']}: {grade}{x['message']} [{x['ruleId']}]"]
    out += [f"{_loc(n.get('location', {}))}: note: {n.get('message', '')}" for n in x.get("notes", [])]
    if x.get("fix"):
        out.append(f"{at}: note: fix: {x['fix']}")
    w = x.get("witness")
    if w:
        if w.get("values"):
            out.append(f"{at}: note: witness: " + ", ".join(f"{k} = {v}" for k, v in w["values"].items()))
        if w.get("omittedSteps"):
            out.append(f"{at}: note: path: {w['omittedSteps']} earlier step(s) omitted")
        out += [f"{_loc(s.get('location', {}))}: note: path: {s.get('what', '')}" for s in w.get("path", [])]
        out += [f"{at}: note: state: {s}" for s in w.get("state", [])]
    return out


@pytest.fixture
def ptoverify_check(request):
    """ptoverify_check(path, **options): fail the test when ptoverify reports anything on path."""
    def check(path, **options):
        findings = ptoverify.check(path, **options)
        if findings:
            pytest.fail("ptoverify:\n" + "\n".join(str(f) for f in findings), pytrace=False)
        return findings
    return check
