"""pytest plugin: check the kernels a test session generated.

    pytest --ptoverify out/kernels           # after the tests, check what they wrote there
    pytest --ptoverify out/ --ptoverify-args="--rules sync-* -p build"

A finding at or above --fail-on (warning by default), or an input ptoverify could not read,
fails the session and prints the findings. Tests can also check one kernel themselves with
the `ptoverify_check` fixture: `ptoverify_check(path)` fails the test with the findings' text.
"""
from __future__ import annotations

import os
import shlex
import subprocess

import pytest

import ptoverify


def pytest_addoption(parser):
    group = parser.getgroup("ptoverify", "check generated NPU kernels with ptoverify")
    group.addoption("--ptoverify", action="append", default=[], metavar="DIR",
                    help="after the session, check the kernels written under DIR (repeatable)")
    group.addoption("--ptoverify-args", default="", metavar="ARGS",
                    help="more `ptoverify check` arguments, e.g. \"--rules sync-* -- -Iinclude\"")


def _options(config) -> list:
    return shlex.split(config.getoption("--ptoverify-args") or "")


def _run(paths, extra):
    cmd = [ptoverify.executable(), "check", *map(os.fspath, paths), "--color", "never", *extra]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)


def pytest_sessionfinish(session, exitstatus):
    dirs = session.config.getoption("--ptoverify")
    if not dirs:
        return
    proc = _run(dirs, _options(session.config))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "ptoverify " + " ".join(dirs))
        reporter.write(proc.stdout)
    if proc.returncode != 0 and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def ptoverify_check(request):
    """ptoverify_check(path, **options): fail the test when ptoverify reports anything on path."""
    def check(path, **options):
        findings = ptoverify.check(path, **options)
        if findings:
            pytest.fail("ptoverify:\n" + "\n".join(str(f) for f in findings), pytrace=False)
        return findings
    return check
