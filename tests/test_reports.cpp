// Report writers: GitHub's SARIF caps, fingerprints that ignore line numbers, JUnit verdicts.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyzer/utf8.h"
#include "cli/report/fingerprint.h"
#include "cli/report/formats.h"
#include "cli/report/json_text.h"
#include "cli/report/sarif_limits.h"
#include "cli/changed_lines.h"
#include "cli/witness_dot.h"

using namespace ptov;

namespace {
Finding finding(int line, const std::string& message, const std::string& kernel = "k") {
  Finding f;
  f.ruleId = "sync-deadlock";
  f.loc = SourceLoc{"k.pto", line, 3};
  f.message = message;
  f.kernel = kernel;
  return f;
}
}  // namespace

TEST_CASE("reports: SARIF keeps at most 25,000 results and says so") {
  CheckResult r;
  FileResult file;
  file.path = "k.pto";
  for (int i = 0; i < 25010; ++i) file.findings.push_back(finding(i + 1, "wait " + std::to_string(i)));
  r.files.push_back(file);
  assignFingerprints(r);
  std::ostringstream out;
  writeSarif(r, out, ReportOptions{});
  auto doc = nlohmann::json::parse(out.str());
  const auto& run = doc["runs"][0];
  CHECK(run["results"].size() == kSarifMaxResults);
  const auto& notes = run["invocations"][0]["toolExecutionNotifications"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["message"]["text"].get<std::string>().find("capped at 25000 of 25010") != std::string::npos);
}

TEST_CASE("reports: the SARIF size cap is on the gzip-compressed log") {
  CheckResult r;
  FileResult file;
  file.path = "k.pto";
  for (int i = 0; i < 400; ++i) file.findings.push_back(finding(i + 1, "wait " + std::to_string(i * 7919 % 1000003)));
  r.files.push_back(file);
  assignFingerprints(r);
  std::ostringstream out;
  writeSarif(r, out, ReportOptions{});
  auto doc = nlohmann::json::parse(out.str());
  size_t whole = gzipSize(out.str());
  CHECK(whole < out.str().size() / 4);  // the size that counts is far below the text's
  nlohmann::json empty = doc;
  empty["runs"][0]["results"] = nlohmann::json::array();
  size_t limit = (gzipSize(jsonText(empty, 2)) + whole) / 2;  // the rules' help pages alone take a part
  capSarifResults(doc, limit);
  size_t kept = doc["runs"][0]["results"].size();
  CHECK(kept > 0);
  CHECK(kept < 400);
  CHECK(gzipSize(jsonText(doc, 2)) <= limit);
  const auto& notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["message"]["text"].get<std::string>().find("of 400") != std::string::npos);
}

TEST_CASE("reports: fingerprints follow the fact, not the line") {
  CHECK(factOf("blocked at pto.wait_flag (line 14) and :12:3") == "blocked at pto.wait_flag (line ) and ::");
  // What a solver's time budget had left is not part of the fact.
  CHECK(factOf("could not prove: x (Z3 timed out after 1802 ms)") == factOf("could not prove: x (Z3 timed out after 2000 ms)"));
  CHECK(factOf("`TIMEOUT_1MS` (1 ms)") != factOf("`TIMEOUT_2MS` (2 ms)"));
  CHECK(factOf("a timeout of 1 ms") != factOf("a timeout of 2 ms"));
  auto fp = [](std::vector<Finding> fs) {
    CheckResult r;
    FileResult f;
    f.findings = std::move(fs);
    r.files.push_back(f);
    assignFingerprints(r);
    std::vector<std::string> out;
    for (const auto& x : r.files[0].findings) out.push_back(x.fingerprint);
    return out;
  };
  auto a = fp({finding(10, "wait [PIPE_MTE2, PIPE_V] (line 9)"), finding(20, "wait [PIPE_MTE2, PIPE_V] (line 9)")});
  auto moved = fp({finding(30, "wait [PIPE_MTE2, PIPE_V] (line 29)"), finding(40, "wait [PIPE_MTE2, PIPE_V] (line 29)")});
  CHECK(a == moved);        // lines moved: same identity
  CHECK(a[0] != a[1]);      // two identical facts in one kernel stay distinct
  auto other = fp({finding(10, "wait [PIPE_MTE3, PIPE_V] (line 9)")});
  CHECK(other[0] != a[0]);  // another fact: another identity
  auto otherKernel = fp({finding(10, "wait [PIPE_MTE2, PIPE_V] (line 9)", "k2")});
  CHECK(otherKernel[0] != a[0]);
}

TEST_CASE("reports: JUnit fails, passes and skips per kernel x rule") {
  CheckResult r;
  r.failOn = Severity::Warning;
  FileResult file;
  file.path = "k.pto";
  file.kernelNames = {"k"};
  Finding unknown = finding(5, "could not prove: x (timeout)");
  unknown.ruleId = "barrier-arrival";
  unknown.unknown = true;
  file.findings = {finding(3, "blocks <forever> & more"), unknown};
  r.files.push_back(file);
  std::ostringstream out;
  ReportOptions o;
  o.ruleGlobs = {"sync-deadlock", "barrier-arrival", "ub-range"};
  writeJunit(r, out, o);
  std::string xml = out.str();
  CHECK(xml.find("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\"") != std::string::npos);
  CHECK(xml.find("blocks &lt;forever&gt; &amp; more") != std::string::npos);
  CHECK(xml.find("<skipped message=\"could not prove: x (timeout)\"/>") != std::string::npos);
  CHECK(xml.find("name=\"ub-range\"/>") != std::string::npos);
}

TEST_CASE("validUtf8: invalid sequences become U+FFFD, valid ones stay") {
  CHECK(validUtf8("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(validUtf8("k\xff") == "k\xef\xbf\xbd");
  CHECK(validUtf8("\xc3") == "\xef\xbf\xbd");                               // truncated
  CHECK(validUtf8("\xc0\xaf") == "\xef\xbf\xbd\xef\xbf\xbd");               // overlong '/'
  CHECK(validUtf8("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate
  CHECK(validUtf8("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");               // outside the BMP
  CHECK(describeCharacter("a\xc3\xa9", 1) == "'\xc3\xa9' (U+00E9)");
  CHECK(describeCharacter("\x01", 0) == "U+0001");
  CHECK(describeCharacter("$", 0) == "'$'");
  size_t n = 0;
  CHECK(describeCharacter("\xff", 0, &n) == "byte 0xFF");
  CHECK(n == 1);
}

TEST_CASE("witness DOT: one graph per finding, labels escaped for Graphviz") {
  Finding f = finding(14, "wait \"x\" blocks");
  Witness w;
  w.values = {{"%i", 1}};
  w.lanes.push_back({"PIPE_V", "wait_flag in iteration %i = 1 (line 14)", f.loc, -1, true, false});
  f.witness = std::make_shared<const Witness>(w);
  std::string dot = witnessDot(f);
  CHECK(dot.find("label=\"sync-deadlock at k.pto:14\\nwait \\\"x\\\" blocks\\nwitness: %i = 1\"") != std::string::npos);
  CHECK(dot.find("color=red") != std::string::npos);
  w.lanes.clear();
  f.witness = std::make_shared<const Witness>(w);
  CHECK(witnessDot(f).empty());
}

TEST_CASE("reports: GitCode comments carry body, path, position and need_to_resolve, nothing else") {
  CheckResult r;
  FileResult file;
  file.path = "/repo/framework/src/machine/device/dynamic/aicore_manager.h";
  Finding blocker = finding(2228, "no full fence between the STOP and `ResetParallelDevTask`");
  blocker.loc.file = file.path;
  blocker.ruleId = "timing-stop-order";
  blocker.grade = "Blocker";
  blocker.fix = "put __sync_synchronize() between the STOP writes and the clear";
  blocker.notes.push_back({SourceLoc{"/repo/framework/src/machine/device/dynamic/aicore_hal.h", 470, 9}, "reached through `ResetShakeBuf`"});
  Finding minor = finding(47, "per-slot state");
  minor.loc.file = file.path;
  minor.grade = "Minor";
  Finding outside = finding(3, "a finding in a file outside the repository");
  outside.loc.file = "/elsewhere/x.h";
  file.findings = {blocker, minor, outside};
  r.files.push_back(file);
  std::ostringstream out;
  ReportOptions o;
  o.sourceRoot = "/repo";
  writeGitcode(r, out, o);
  nlohmann::json comments = nlohmann::json::parse(out.str());
  REQUIRE(comments.size() == 2);  // GitCode places a comment only on a file of the repository
  for (const auto& c : comments) {
    std::set<std::string> keys;
    for (const auto& [k, v] : c.items()) keys.insert(k);
    CHECK(keys == std::set<std::string>{"body", "path", "position", "need_to_resolve"});
  }
  CHECK(comments[0]["path"] == "framework/src/machine/device/dynamic/aicore_manager.h");
  CHECK(comments[0]["position"] == 2228);
  CHECK(comments[0]["need_to_resolve"] == true);
  std::string body = comments[0]["body"];
  CHECK(body.rfind("**Blocker** `timing-stop-order`", 0) == 0);
  CHECK(body.find("**Problem:** no full fence") != std::string::npos);
  CHECK(body.find("framework/src/machine/device/dynamic/aicore_hal.h:470: reached through") != std::string::npos);
  CHECK(body.find("**Fix:** put __sync_synchronize()") != std::string::npos);
  CHECK(comments[1]["need_to_resolve"] == false);
}

TEST_CASE("changed lines: a unified diff's added lines, per file of the new side") {
  std::istringstream diff(
      "diff --git a/framework/a.h b/framework/a.h\n"
      "--- a/framework/a.h\n"
      "+++ b/framework/a.h\n"
      "@@ -10,2 +10,3 @@ void f()\n"
      "@@ -40 +41 @@\n"
      "@@ -60,4 +62,0 @@\n"
      "diff --git a/gone.h b/gone.h\n"
      "--- a/gone.h\n"
      "+++ /dev/null\n"
      "@@ -1,3 +0,0 @@\n");
  ChangedLines lines;
  std::string error;
  REQUIRE(parseUnifiedDiff(diff, lines, error));
  CHECK(lines.contains("framework/a.h", 10));
  CHECK(lines.contains("framework/a.h", 12));
  CHECK_FALSE(lines.contains("framework/a.h", 13));
  CHECK(lines.contains("framework/a.h", 41));
  CHECK_FALSE(lines.contains("framework/a.h", 62));  // a deletion adds no line
  CHECK(lines.ranges.count("gone.h") == 0);
  CHECK(lines.touches("framework/a.h", 62, 62));  // old lines 60-63 were deleted after new line 62
  CHECK(lines.touches("framework/a.h", 63, 70));
  CHECK_FALSE(lines.touches("framework/a.h", 64, 70));
  CHECK_FALSE(lines.touches("framework/a.h", 60, 61));
  std::istringstream notADiff("hello\n");
  ChangedLines none;
  CHECK_FALSE(parseUnifiedDiff(notADiff, none, error));
  CHECK(error.find("not a unified diff") != std::string::npos);
}

TEST_CASE("changed lines: hunk bodies give added lines, deletion points and the old text") {
  std::istringstream diff(
      "--- a/k.pto\n"
      "+++ b/k.pto\n"
      "@@ -2,4 +2,4 @@ func\n"
      " a\n"
      "-fence\n"
      " b\n"
      "--- not a header: a removed line\n"
      "+c\n"
      "+d\n");
  ChangedLines lines;
  std::string error;
  REQUIRE(parseUnifiedDiff(diff, lines, error));
  REQUIRE(lines.files.size() == 1);
  CHECK(lines.files[0].hunks[0].lines.size() == 6);
  CHECK_FALSE(lines.contains("k.pto", 2));  // context lines are not changed lines
  CHECK(lines.contains("k.pto", 4));
  CHECK(lines.contains("k.pto", 5));
  CHECK(lines.touches("k.pto", 2, 3));   // the fence was deleted between new lines 2 and 3
  CHECK_FALSE(lines.touches("k.pto", 1, 1));
  CHECK(lines.inHunk("k.pto", 2));
  CHECK(lines.changesFile("k.pto"));
  std::string old;
  REQUIRE(oldVersion(lines.files[0], "x\na\nb\nc\nd\ny\n", old, error));
  CHECK(old == "x\na\nfence\nb\n-- not a header: a removed line\ny\n");
  CHECK_FALSE(oldVersion(lines.files[0], "x\na\nB\nc\nd\ny\n", old, error));
  CHECK(error.find("line 3") != std::string::npos);
}

TEST_CASE("reports: one review comment per file, line and rule, listing the other kernels") {
  CheckResult r;
  FileResult file;
  file.path = "/repo/k.pto";
  Finding a = finding(12, "wait can block", "caller_a");
  Finding b = finding(12, "wait can block", "caller_b");
  Finding c = finding(12, "wait can block at the second trip", "caller_c");
  Finding elsewhere = finding(20, "wait can block", "caller_a");
  for (Finding* f : {&a, &b, &c, &elsewhere}) f->loc.file = file.path;
  file.findings = {a, b, c, elsewhere};
  assignFingerprints(file);
  r.files.push_back(file);
  ReportOptions o;
  o.sourceRoot = "/repo";
  std::ostringstream gitcode, rdjson, markdown;
  writeGitcode(r, gitcode, o);
  nlohmann::json comments = nlohmann::json::parse(gitcode.str());
  REQUIRE(comments.size() == 2);
  std::string body = comments[0]["body"];
  CHECK(body.find("Also on this line (2 more):") != std::string::npos);
  CHECK(body.find("kernel `caller_b`\n") != std::string::npos);  // same message: not repeated
  CHECK(body.find("kernel `caller_c`: wait can block at the second trip") != std::string::npos);
  // A marker a poster can look for on the pull request: stable, one per comment.
  std::string marker = "<!-- ptoverify:sync-deadlock:";
  CHECK(body.find(marker) != std::string::npos);
  CHECK(std::string(comments[1]["body"]).find(marker) != std::string::npos);
  CHECK(body.substr(body.find(marker)) != std::string(comments[1]["body"]).substr(std::string(comments[1]["body"]).find(marker)));
  writeRdjson(r, rdjson, false);
  CHECK(nlohmann::json::parse(rdjson.str())["diagnostics"].size() == 2);
  writeMarkdown(r, markdown, o);
  CHECK(markdown.str().find("  - also kernel `caller_b`\n") != std::string::npos);
  CHECK(markdown.str().find("| `sync-deadlock` | 4 |") != std::string::npos);  // the counts stay per finding
  // The most severe finding of the line leads its comment.
  Finding warning = finding(30, "maybe", "caller_w"), error = finding(30, "surely", "caller_e");
  warning.severity = Severity::Warning;
  warning.loc.file = error.loc.file = file.path;
  r.files[0].findings = {warning, error};
  std::ostringstream mixed;
  writeGitcode(r, mixed, o);
  nlohmann::json one = nlohmann::json::parse(mixed.str());
  REQUIRE(one.size() == 1);
  CHECK(std::string(one[0]["body"]).rfind("**Blocker** `sync-deadlock`\n\n**Problem:** surely", 0) == 0);
}
