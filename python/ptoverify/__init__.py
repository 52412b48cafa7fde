"""ptoverify from Python: check generated Ascend NPU kernels and get the findings as objects.

    import ptoverify
    for f in ptoverify.check(["out/"], rules="sync-*", compiler_args=["-Iinclude"]):
        print(f)

The checker is the `ptoverify` executable (the `executable` option, else $PTOVERIFY, else the one
on PATH); this module runs it with `--format json` and reads that report. An input the tool could
not read is an exception, never an empty list.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence, Union

__all__ = ["Location", "Finding", "Result", "PtoverifyError", "check", "run", "executable"]


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Finding:
    rule: str
    level: str  # "error", "warning", "note" or "unknown" (an undecided proof)
    message: str
    location: Location
    kernel: str = ""
    fingerprint: str = ""
    notes: tuple = ()

    def __str__(self) -> str:
        return f"{self.location}: {self.level}: {self.message} [{self.rule}]"


@dataclass
class Result:
    findings: list
    input_errors: list  # "file:line:col: message" of inputs that could not be read or parsed
    exit_code: int  # 0 clean, 1 findings, 2 input error, 3 undecided under strict
    summary: dict = field(default_factory=dict)


class PtoverifyError(RuntimeError):
    """ptoverify could not check the inputs (exit 2) or failed itself."""


_FLAGS = {
    "rules": "--rules",
    "arch": "--arch",
    "config": "--config",
    "fail_on": "--fail-on",
    "compile_commands": "-p",
    "jobs": "-j",
    "baseline": "--baseline",
    "diff": "--diff",
    "changed_lines": "--changed-lines",
    "filter_mode": "--filter-mode",
    "kernel_budget": "--kernel-budget",
    "solver_timeout": "--solver-timeout",
    "cache_dir": "--cache-dir",
    "source_root": "--source-root",
}

PathLike = Union[str, os.PathLike]


def executable(explicit: str | None = None) -> str:
    """The ptoverify executable: `explicit`, else $PTOVERIFY, else the one on PATH."""
    exe = explicit or os.environ.get("PTOVERIFY") or shutil.which("ptoverify")
    if not exe:
        raise PtoverifyError("ptoverify not found: install it, put it on PATH or set $PTOVERIFY")
    return exe


def _command(paths: Sequence[PathLike], options: Mapping) -> list:
    options = dict(options)
    cmd = [executable(options.pop("executable", None)), "check"]
    cmd += [os.fspath(p) for p in paths]
    cmd += ["--format", "json", "--color", "never"]
    compiler_args = list(options.pop("compiler_args", ()))
    if options.pop("strict", False):
        cmd.append("--strict")
    for name, (lo, hi) in dict(options.pop("param_ranges", {})).items():
        cmd += ["--param-range", f"{name}={lo}:{hi}"]
    for key, value in options.items():
        if key not in _FLAGS:
            raise TypeError(f"check() got an unknown option {key!r}")
        if isinstance(value, (list, tuple)):
            value = ",".join(value)
        cmd += [_FLAGS[key], str(value)]
    if compiler_args:
        cmd += ["--", *compiler_args]
    return cmd


def _location(d: Mapping) -> Location:
    return Location(d.get("file", ""), int(d.get("line", 0)), int(d.get("col", 0)))


def run(paths: Union[PathLike, Iterable[PathLike]], **options) -> Result:
    """Checks `paths` (files or directories) and returns every finding with the exit code.

    Options: rules (str or list of globs), arch, config, fail_on, compile_commands (-p DIR), jobs,
    baseline, diff, changed_lines, filter_mode, kernel_budget, solver_timeout, cache_dir,
    source_root, strict, param_ranges ({name: (lo, hi)}), compiler_args (flags after `--`),
    executable. Raises PtoverifyError when the tool fails itself (an exit code above 3, or no
    JSON report).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    report, code = json_report(_command(list(paths), options))
    findings = [_finding(f) for f in report.get("findings", [])]
    errors = [_diagnostic_text(d) for d in report.get("inputDiagnostics", []) if d.get("level") == "error"]
    return Result(findings, errors, code, report.get("summary", {}))


def json_report(cmd: Sequence[str], cwd: PathLike | None = None) -> tuple:
    """Runs a `ptoverify check ... --format json` command: (the parsed report, the exit code)."""
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False, cwd=cwd)
    if proc.returncode > 3:
        raise PtoverifyError(f"ptoverify failed (exit {proc.returncode}): {proc.stderr.strip()}")
    try:
        return json.loads(proc.stdout), proc.returncode
    except json.JSONDecodeError as e:
        raise PtoverifyError(f"ptoverify wrote no JSON report ({e}): {proc.stderr.strip()}") from e


def _finding(f: Mapping) -> Finding:
    return Finding(
        rule=f["ruleId"],
        level=f["level"],
        message=f["message"],
        location=_location(f.get("location", {})),
        kernel=f.get("kernel", ""),
        fingerprint=f.get("fingerprint", ""),
        notes=tuple((_location(n.get("location", {})), n.get("message", "")) for n in f.get("notes", [])),
    )


def _diagnostic_text(d: Mapping) -> str:
    return (f"{_location(d['location'])}: " if "location" in d else "") + d.get("message", "")


def check(paths: Union[PathLike, Iterable[PathLike]], **options) -> list:
    """The findings ptoverify reports on `paths` (options as for run()).

    Raises PtoverifyError when an input could not be read or parsed: those inputs were not
    checked, so an empty list would claim too much.
    """
    result = run(paths, **options)
    if result.input_errors or result.exit_code == 2:
        raise PtoverifyError("ptoverify could not check every input:\n" + "\n".join(result.input_errors))
    return result.findings
