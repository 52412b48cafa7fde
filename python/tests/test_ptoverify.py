"""The Python package and its pytest plugin, against the ptoverify executable ($PTOVERIFY) and the
repository's corpus ($PTOVERIFY_SOURCE). Run: python3 -m pytest -p pytester python/tests"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import ptoverify

SOURCE = pathlib.Path(os.environ["PTOVERIFY_SOURCE"])
BAD_PTO = SOURCE / "corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto"
GOOD_PTO = SOURCE / "examples/ring_step_good.pto"
BAD_CPP = SOURCE / "corpus/sync-deadlock/bad/alternating_wait_on_other_id.cpp"


def test_check_returns_the_findings():
    findings = ptoverify.check(BAD_PTO)
    assert findings, "a known-bad kernel gave no finding"
    f = findings[0]
    assert f.rule == "sync-deadlock" and f.level == "error"
    assert f.location.file.endswith("rearm_on_last_iteration_only.pto") and f.location.line > 0
    assert str(f).endswith("[sync-deadlock]")


def test_check_of_a_good_kernel_is_empty():
    assert ptoverify.check([GOOD_PTO]) == []


def test_options_reach_the_tool():
    assert ptoverify.check(BAD_PTO, rules="comm-*") == []
    assert ptoverify.check(BAD_PTO, rules=["sync-deadlock"])
    assert all(f.rule.startswith("sync-") for f in ptoverify.check(BAD_CPP, rules="sync-*"))
    with pytest.raises(TypeError):
        ptoverify.check(BAD_PTO, no_such_option=1)


def test_an_unreadable_input_is_an_error_not_an_empty_list(tmp_path):
    broken = tmp_path / "broken.pto"
    broken.write_text("module {\n  func.func @k( {\n")
    with pytest.raises(ptoverify.PtoverifyError, match="broken.pto"):
        ptoverify.check(broken)
    with pytest.raises(ptoverify.PtoverifyError, match="no such file"):
        ptoverify.check(tmp_path / "missing.pto")
    result = ptoverify.run(broken)
    assert result.exit_code == 2 and result.input_errors


def _kernels(pytester, **files):
    """pytester.path/kernels with copies of the given kernels ({name: source})."""
    out = pytester.path / "kernels"
    out.mkdir(exist_ok=True)
    for name, src in files.items():
        shutil.copy(src, out / name)
    return out


def _counting_tool(pytester, monkeypatch):
    """$PTOVERIFY as a wrapper that logs each run's arguments, one line per process."""
    log = pytester.path / "runs.log"
    wrapper = pytester.path / "ptoverify-logged"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {os.environ["PTOVERIFY"]} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PTOVERIFY", str(wrapper))
    return log


def _runs(log):
    runs = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return runs


def test_each_kernel_is_an_item_failing_with_its_findings(pytester, monkeypatch):
    _kernels(pytester, **{"bad.pto": BAD_PTO, "good.pto": GOOD_PTO})
    log = _counting_tool(pytester, monkeypatch)
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels", "-rf", "--junitxml=j.xml")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines([
        "*_ kernels/bad.pto::ptoverify _*",
        "kernels/bad.pto:*: error: *can block PIPE_MTE2 forever*[[]sync-deadlock[]]",
        "FAILED kernels/bad.pto::ptoverify",
        "*1 failed, 1 passed*",
    ])
    assert len(_runs(log)) == 1, "the two kernels were not checked by one ptoverify process"
    case = {c.get("classname") + "." + c.get("name"): c for c in ET.parse(pytester.path / "j.xml").iter("testcase")}
    failure = case["kernels.bad.pto.ptoverify"].find("failure")
    assert failure is not None and "[sync-deadlock]" in failure.text
    assert case["kernels.good.pto.ptoverify"].find("failure") is None

    # Unchanged: the good kernel passes from pytest's cache, only the bad one is checked again.
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels")
    result.assert_outcomes(failed=1, passed=1)
    assert [r.split()[1] for r in _runs(log)] == ["kernels/bad.pto"]
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels", "--cache-clear")
    result.assert_outcomes(failed=1, passed=1)
    assert "good.pto" in _runs(log)[0]


def test_a_changed_kernel_is_checked_again(pytester, monkeypatch):
    out = _kernels(pytester, **{"k.pto": GOOD_PTO})
    pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels").assert_outcomes(passed=1)
    shutil.copy(BAD_PTO, out / "k.pto")
    pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels").assert_outcomes(failed=1)


def test_an_unreadable_kernel_is_an_error_item(pytester):
    out = _kernels(pytester, **{"good.pto": GOOD_PTO})
    (out / "broken.pto").write_text("module {\n  func.func @k( {\n")
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at setup of kernels/broken.pto::ptoverify*", "kernels/broken.pto:*: error: *"])


def test_marker_keyword_and_ini_options(pytester):
    _kernels(pytester, **{"bad.pto": BAD_PTO, "good.pto": GOOD_PTO})
    pytester.makeini("[pytest]\nptoverify_paths = kernels\nptoverify_args = --rules comm-*\n")
    pytester.makepyfile(test_unit="def test_unit():\n    pass\n")
    # --rules comm-* from the ini file: the sync-deadlock finding is not asked for.
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "-m", "ptoverify", "--strict-markers")
    result.assert_outcomes(passed=2, deselected=1)
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "-k", "bad", "--ptoverify-args=--rules sync-*")
    result.assert_outcomes(failed=1, deselected=2)


def test_kernels_the_tests_write_are_checked_after_them(pytester):
    pytester.makepyfile(
        test_gen=f"""
import shutil, pathlib
def test_generate():
    out = pathlib.Path("generated")
    out.mkdir(exist_ok=True)
    shutil.copy({str(BAD_PTO)!r}, out / "kernel.pto")
"""
    )
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", "generated")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["FAILED generated/kernel.pto::ptoverify*"])


def test_xdist_checks_each_kernel_once_per_worker_batch(pytester, monkeypatch):
    pytest.importorskip("xdist")
    names = ["bad.pto"] + [f"good{i:02}.pto" for i in range(11)]
    _kernels(pytester, **{n: BAD_PTO if n == "bad.pto" else GOOD_PTO for n in names})
    log = _counting_tool(pytester, monkeypatch)
    result = pytester.runpytest_subprocess("-p", "ptoverify.pytest_plugin", "--ptoverify", "kernels", "-n", "2")
    result.assert_outcomes(passed=11, failed=1)
    runs = _runs(log)
    # Each worker claims half the files; one that waited on the other's claim may claim what is
    # left as the other does, so three processes at most, and no file checked twice.
    assert 1 <= len(runs) <= 3, runs
    checked = sorted(a for r in runs for a in r.split() if a.endswith(".pto"))
    assert checked == sorted(f"kernels/{n}" for n in names)


def test_fixture_fails_the_test_with_the_findings(pytester):
    pytester.makepyfile(
        test_fixture=f"""
def test_kernel(ptoverify_check):
    ptoverify_check({str(BAD_PTO)!r})
"""
    )
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*ptoverify:*", "*[[]sync-deadlock[]]*"])


def _readme_commands():
    """The shell block of README.md's Python and pytest item, one command a line."""
    text = (SOURCE / "README.md").read_text()
    block = re.search(r"^ *```sh\n( *pip install \./python\n.*?)^ *```", text, re.S | re.M)
    assert block, "README.md has no ```sh block starting with `pip install ./python`"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_commands_run_as_written(tmp_path):
    """Installs the package into a fresh virtual environment (Debian's python3 packages seen
    through --system-site-packages, no package index) and runs README.md's commands there."""
    pytest.importorskip("ensurepip", reason="python3-venv is not installed")
    work = tmp_path / "repo"
    shutil.copytree(SOURCE / "python", work / "python",
                    ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info", ".pytest_cache"))
    _copy_kernels(work / "out/kernels")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "PTOVERIFY_SOURCE")}
    env.update(PATH=f"{venv}/bin:{env['PATH']}", VIRTUAL_ENV=str(venv), PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    commands = _readme_commands()
    assert any(c.startswith("pip install") for c in commands) and any("pytest" in c for c in commands)
    for command in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False, timeout=120)
        if "pytest" in command:
            assert proc.returncode == 1, f"{command}\n{proc.stdout}"
            assert "1 failed, 1 passed" in proc.stdout and "[sync-deadlock]" in proc.stdout, f"{command}\n{proc.stdout}"
            assert "FAILED out/kernels/ring_step_bad.pto::ptoverify" in proc.stdout, proc.stdout
        else:
            assert proc.returncode == 0, f"{command}\n{proc.stdout}"


def _copy_kernels(out):
    out.mkdir(parents=True)
    shutil.copy(BAD_PTO, out / "ring_step_bad.pto")
    shutil.copy(GOOD_PTO, out / "ring_step_good.pto")
