#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/corpus.h"

using namespace ptov;

TEST_CASE("expectations: offsets, same line, absolute, several per line, malformed") {
  ExpectationSet s = parseExpectations(
      "line1\n"
      "  // expect-error@+1 {{comm-publish-fence}}\n"
      "  pto.tstore ... // expect-warning {{sync-event-pairing}}\n"
      "// expect-note@-3 {{comm-wait-batching}} expect-error@7 {{input}}\n"
      "// expect-eror {{typo}}\n");
  REQUIRE(s.expected.size() == 4);
  CHECK(s.expected[0].line == 3);
  CHECK(s.expected[0].severity == "error");
  CHECK(s.expected[0].ruleId == "comm-publish-fence");
  CHECK(s.expected[1].line == 3);
  CHECK(s.expected[1].severity == "warning");
  CHECK(s.expected[2].line == 1);
  CHECK(s.expected[3].line == 7);
  CHECK(s.expected[3].ruleId == "input");
  CHECK(s.syntaxProblems == std::vector<std::string>{"5"});
  CHECK_FALSE(s.noFindings);
  CHECK(parseExpectations("// expect-no-findings\n").noFindings);
}

namespace {
// Writes `text` to DIR/<rule>/good/case.pto under a fresh temporary DIR; returns the path.
std::string goodCase(const std::string& rule, const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / ("ptov-good-" + std::to_string(::getpid())) / rule / "good";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "case.pto").string();
  std::ofstream(path) << text;
  return path;
}

const char* kSetWait =
    "// expect-no-findings\n"
    "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
    "  pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
    "  return\n"
    "}\n";
}  // namespace

TEST_CASE("corpus: a good case passes only where its rule ran") {
  CheckRequest req;
  req.useConfigFiles = false;
  // sync-deadlock reads set and wait flags: it runs on this kernel and proves it.
  CorpusFileResult ran = verifyFile(goodCase("sync-deadlock", kSetWait), req);
  CHECK(ran.passed());
  // comm-publish-fence reads notifies, puts, invalidates and fences: none here.
  CorpusFileResult na = verifyFile(goodCase("comm-publish-fence", kSetWait), req);
  REQUIRE(na.failures.size() == 1);
  CHECK(na.failures[0].find("a good case of comm-publish-fence that comm-publish-fence never checked: it applies to "
                            "none of the file's kernels") != std::string::npos);
  CorpusFileResult unknown = verifyFile(goodCase("no-such-rule", kSetWait), req);
  REQUIRE(unknown.failures.size() == 1);
  CHECK(unknown.failures[0].find("no rule of this build has that id") != std::string::npos);
  req.ruleGlobs = {"-sync-deadlock"};
  CorpusFileResult disabled = verifyFile(goodCase("sync-deadlock", kSetWait), req);
  REQUIRE(disabled.failures.size() == 1);
  CHECK(disabled.failures[0].find("disables it") != std::string::npos);
  std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("ptov-good-" + std::to_string(::getpid())));
}
