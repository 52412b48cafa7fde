#pragma once
// The lines a pull request changes, for a review that comments only on them (seed 003 §5.3:
// `git diff $BASE..$PR_HEAD`): `--diff BASE..HEAD` asks git, `--changed-lines FILE` reads a
// unified diff. Paths are relative to the repository's top directory, as git writes them.
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/check.h"

namespace ptov {

struct ChangedLines {
  std::string root;  // the directory the diff's paths are relative to (absolute)
  std::map<std::string, std::vector<std::pair<int, int>>> ranges;  // path -> [first, last] lines of the new file
  bool contains(const std::string& relativePath, int line) const;
};

// Reads `diff --git` / `+++ b/path` / `@@ -a,b +c,d @@` lines; false with `error` when the text
// has no file header at all.
bool parseUnifiedDiff(std::istream& in, ChangedLines& out, std::string& error);
// Runs `git diff -U0 RANGE` in the repository holding `dir`.
bool changedLinesFromGit(const std::string& range, const std::string& dir, ChangedLines& out, std::string& error);
// Keeps the findings on changed lines; returns how many were left out.
size_t keepChangedLines(CheckResult& result, const ChangedLines& lines);

}  // namespace ptov
