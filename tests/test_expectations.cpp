#include <doctest/doctest.h>

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
