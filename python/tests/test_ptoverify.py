"""The Python package and its pytest plugin, against the ptoverify executable ($PTOVERIFY) and the
repository's corpus ($PTOVERIFY_SOURCE). Run: python3 -m pytest -p pytester python/tests"""
import os
import pathlib
import shutil

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


def test_plugin_fails_the_session_on_a_bad_generated_kernel(pytester):
    out = pytester.path / "generated"
    pytester.makepyfile(
        test_gen=f"""
import shutil, pathlib
def test_generate():
    out = pathlib.Path({str(out)!r})
    out.mkdir(exist_ok=True)
    shutil.copy({str(BAD_PTO)!r}, out / "kernel.pto")
"""
    )
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", str(out))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*kernel.pto:*: error: *can block PIPE_MTE2 forever*[[]sync-deadlock[]]"])


def test_plugin_passes_a_session_whose_kernels_are_good(pytester):
    out = pytester.path / "generated"
    out.mkdir()
    shutil.copy(GOOD_PTO, out / "kernel.pto")
    pytester.makepyfile(test_ok="def test_nothing():\n    pass\n")
    result = pytester.runpytest("-p", "ptoverify.pytest_plugin", "--ptoverify", str(out))
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*ptoverify*", "*0 error(s)*"])


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
