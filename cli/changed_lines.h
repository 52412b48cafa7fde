#pragma once
// The change a pull request makes, read from a unified diff: `--diff BASE..HEAD` asks git for it,
// `--changed-lines FILE` reads a patch. Paths are relative to the repository's top directory, as
// git writes them. The hunks are kept whole, so the files as they were before the change can be
// rebuilt (cli/differential.h) and a deleted line counts as much as an added one.
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/check.h"

namespace ptov {

struct DiffHunk {
  int oldStart = 0, oldCount = 0, newStart = 0, newCount = 0;
  std::vector<std::string> lines;  // the body: ' ' context, '-' removed, '+' added (prefix kept)
};

struct FileChange {
  std::string oldPath, newPath;  // "" for /dev/null: an added file has no old path, a deleted one no new
  std::vector<DiffHunk> hunks;
  bool binary = false;  // "Binary files ... differ": no hunks to rebuild it from
};

struct ChangedLines {
  std::string root;  // the directory the diff's paths are relative to (absolute)
  std::map<std::string, std::vector<std::pair<int, int>>> ranges;  // path -> [first, last] lines of the new file
  // path -> new-file lines after which lines were deleted (0: before the first line).
  std::map<std::string, std::vector<int>> deletions;
  // path -> [first, last] new-file lines each hunk spans, its context lines included.
  std::map<std::string, std::vector<std::pair<int, int>>> hunkSpans;
  std::vector<FileChange> files;
  bool contains(const std::string& relativePath, int line) const;
  bool inHunk(const std::string& relativePath, int line) const;
  bool changesFile(const std::string& relativePath) const;
  // Does the change add a line in [first, last], or delete lines between two of them (or next to
  // either end)? A finding whose path runs through a deleted fence is on the change.
  bool touches(const std::string& relativePath, int first, int last) const;
};

// Reads `diff --git` / `--- a/path` / `+++ b/path` / `@@ -a,b +c,d @@` and the hunk bodies; false
// with `error` when the text has no file header at all.
bool parseUnifiedDiff(std::istream& in, ChangedLines& out, std::string& error);
// The text of the file before the change, rebuilt from its text after it (the new version, as on
// disk) and the hunks; false with `error` when the text is not the diff's new version.
bool oldVersion(const FileChange& change, const std::string& newText, std::string& oldText, std::string& error);
// Runs `git diff -U0 RANGE` in the repository holding `dir`.
bool changedLinesFromGit(const std::string& range, const std::string& dir, ChangedLines& out, std::string& error);

}  // namespace ptov
