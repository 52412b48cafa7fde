#pragma once
#include <string>

namespace ptov {

// A position in an input file; line and column are 1-based.
struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
  bool operator==(const SourceLoc& o) const { return line == o.line && col == o.col && file == o.file; }
};

// An input problem (syntax error, unreadable file, construct the front end cannot model).
// Errors make the run exit 2; notes are informational.
struct InputDiagnostic {
  enum class Level { Error, Warning, Note };
  Level level = Level::Error;
  SourceLoc loc;
  std::string message;
};

}  // namespace ptov
