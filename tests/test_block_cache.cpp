// The per-thread block cache behind operator new / delete (cli/block_cache.cpp), linked into
// this binary as it is into `ptoverify`.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

TEST_CASE("a freed block comes back for a request of its class, and live blocks never overlap") {
  void* a = ::operator new(40);
  ::operator delete(a, 40);
  void* b = ::operator new(33);  // same class of 48 bytes: the block just freed
  CHECK(b == a);
  ::operator delete(b);
  // Blocks of every size up to past the largest small class (2 KB), then large ones around each
  // power of two up to past the largest class (1 MB): written through, freed and asked again.
  std::vector<std::pair<unsigned char*, size_t>> live;
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 2100; ++n) sizes.push_back(n);
  for (size_t pow = 4096; pow <= (size_t{2} << 20); pow *= 2)
    for (size_t n : {pow / 2 + 1, pow - 1, pow, pow + 1}) sizes.push_back(n);
  for (size_t n : sizes) {
    auto* p = static_cast<unsigned char*>(::operator new(n));
    CHECK(reinterpret_cast<uintptr_t>(p) % alignof(std::max_align_t) == 0);
    std::memset(p, static_cast<int>(n & 0xFF), n);
    live.emplace_back(p, n);
  }
  for (size_t i = 0; i < live.size(); i += 2) ::operator delete(live[i].first, live[i].second);
  for (size_t i = 0; i < live.size(); i += 2) {
    live[i].first = static_cast<unsigned char*>(::operator new(live[i].second));
    std::memset(live[i].first, static_cast<int>(live[i].second & 0xFF), live[i].second);
  }
  for (const auto& [p, n] : live) {
    bool intact = true;
    for (size_t k = 0; k < n; ++k) intact &= p[k] == static_cast<unsigned char>(n & 0xFF);
    CHECK_MESSAGE(intact, "block of " << n << " bytes overwritten");
    ::operator delete(p, n);
  }
}

TEST_CASE("a class's runs grow past one unit, and every unit of a run keeps the class") {
  // 6,000 blocks of the 48-byte class fill runs of 4, 8, 16, 32 and 64 KB and more. Each stays
  // intact, and blocks spread over those runs, deleted with a size of another class,
  // comes back for a 48-byte request: the class is known in every unit of the run.
  constexpr size_t kBlocks = 6000;
  std::vector<unsigned char*> blocks;
  for (size_t i = 0; i < kBlocks; ++i) {
    auto* p = static_cast<unsigned char*>(::operator new(40));
    std::memset(p, static_cast<int>(i & 0xFF), 40);
    blocks.push_back(p);
  }
  for (size_t i = 0; i < kBlocks; ++i) {
    bool intact = true;
    for (size_t k = 0; k < 40; ++k) intact &= blocks[i][k] == static_cast<unsigned char>(i & 0xFF);
    CHECK_MESSAGE(intact, "block " << i << " overwritten");
  }
  for (size_t i : {size_t{80}, size_t{250}, size_t{590}, size_t{1270}, size_t{2630}, size_t{5990}}) {
    ::operator delete(blocks[i], 1);
    void* again = ::operator new(33);
    CHECK(again == blocks[i]);
  }
  for (unsigned char* p : blocks) ::operator delete(p, 40);
}

TEST_CASE("a block from plain malloc goes back to malloc, never into a class") {
  // Another library's operator new returns malloc(n) unrounded; deleting it here with its
  // asked size must not make it a block of the asked size's (larger) class.
  void* p = std::malloc(20);
  size_t usable = malloc_usable_size(p);
  ::operator delete(p, 20);
  for (int i = 0; i < 4; ++i) {
    void* q = ::operator new(usable + 1);
    CHECK(q != p);
    std::memset(q, 0xAB, usable + 1);
    ::operator delete(q);
  }
}

TEST_CASE("a large block's class is its run's, whatever size a delete passes") {
  void* a = ::operator new(5000);  // the 8 KB class
  ::operator delete(a, 1);
  void* b = ::operator new(8192);
  CHECK(b == a);
  std::memset(b, 0x5A, 8192);
  ::operator delete(b);
}

TEST_CASE("libstdc++.so frees this file's blocks with this file's delete") {
  // std::getline runs in libstdc++.so: it grows the string and frees the block made here
  // (libstdc++.so binds to this file's operator delete; were it its own, free() would abort).
  std::string line(100, 'x');
  std::istringstream in(std::string(5000, 'y') + "\n");
  std::getline(in, line);
  CHECK(line == std::string(5000, 'y'));
}

TEST_CASE("blocks freed on other threads, and by threads that end, stay usable") {
  std::vector<std::string*> made;
  std::thread maker([&] {
    for (int i = 0; i < 20000; ++i) made.push_back(new std::string(40 + i % 200, 'x'));
  });
  maker.join();
  std::thread freer([&] {
    for (auto* s : made) delete s;
    for (int i = 0; i < 20000; ++i) delete new std::string(60, 'y');
  });
  freer.join();  // its cache goes back to malloc as it ends
  std::vector<std::string> again;
  for (int i = 0; i < 20000; ++i) again.emplace_back(40 + i % 200, 'z');
  bool intact = true;
  for (size_t i = 0; i < again.size(); ++i) intact &= again[i] == std::string(40 + i % 200, 'z');
  CHECK(intact);
}
