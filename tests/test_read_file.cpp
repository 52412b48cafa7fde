#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/frontend.h"

namespace {
std::string writeTemp(const std::string& name, const std::string& content) {
  std::string path = (std::filesystem::temp_directory_path() / (name + "." + std::to_string(::getpid()))).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}
}  // namespace

// readRegularFile stops at a short read once fstat's size is read; these sizes sit on and
// around the buffer's edges (empty, one byte, a page, more than the 4 KB growth step).
TEST_CASE("readRegularFile: a file comes back whole, whatever its size") {
  for (size_t size : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{70000}}) {
    std::string content(size, 'x');
    for (size_t i = 0; i < size; ++i) content[i] = static_cast<char>('a' + i % 26);
    std::string path = writeTemp("ptoverify_read_" + std::to_string(size), content);
    std::string error;
    std::optional<std::string> text = ptov::readRegularFile(path, error);
    REQUIRE(text.has_value());
    CHECK(*text == content);
    CHECK(error.empty());
    std::remove(path.c_str());
  }
}

TEST_CASE("readRegularFile: a directory and a missing file are errors, not empty text") {
  std::string error;
  CHECK_FALSE(ptov::readRegularFile(std::filesystem::temp_directory_path().string(), error).has_value());
  CHECK(error == "not a regular file");
  error.clear();
  CHECK_FALSE(ptov::readRegularFile("/nonexistent/ptoverify/none.pto", error).has_value());
  CHECK(error == "cannot read file");
}

// A file whose size fstat reports as 0 but that has bytes (procfs): read until read says 0,
// across more than one growth step.
TEST_CASE("readRegularFile: a procfs file with size 0 is read to its end") {
  std::string error;
  std::optional<std::string> text = ptov::readRegularFile("/proc/self/maps", error);
  REQUIRE(text.has_value());
  CHECK(text->size() > 4096);
  CHECK(text->find("[stack]") != std::string::npos);
  CHECK(text->back() == '\n');
}
