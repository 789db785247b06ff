// A very small test runner: TEST(name) { CHECK(...); CHECK_EQ(a, b); } and run_all() in main.
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace check {

struct Case {
  const char* name;
  std::function<void()> body;
};

inline std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}

inline int& failures() {
  static int n = 0;
  return n;
}

struct Register {
  Register(const char* name, std::function<void()> body) { registry().push_back({name, std::move(body)}); }
};

inline void fail(const char* file, int line, const std::string& what) {
  ++failures();
  std::printf("    %s:%d: %s\n", file, line, what.c_str());
}

template <typename A, typename B>
void equal(const A& a, const B& b, const char* ea, const char* eb, const char* file, int line) {
  if (a == b) return;
  std::ostringstream msg;
  msg << ea << " == " << eb << "  (got " << a << " vs " << b << ")";
  fail(file, line, msg.str());
}

// Runs every registered test (or those whose name contains `filter`); returns the exit code.
inline int run_all(const char* filter) {
  int failed_cases = 0, ran = 0;
  for (const Case& c : registry()) {
    if (filter && std::string(c.name).find(filter) == std::string::npos) continue;
    int before = failures();
    c.body();
    ++ran;
    bool ok = failures() == before;
    if (!ok) ++failed_cases;
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", c.name);
  }
  std::printf("%d test(s), %d failed\n", ran, failed_cases);
  return failed_cases == 0 && ran > 0 ? 0 : 1;
}

}  // namespace check

#define CHECK_CAT2(a, b) a##b
#define CHECK_CAT(a, b) CHECK_CAT2(a, b)
#define TEST(name)                                                              \
  static void name();                                                           \
  static check::Register CHECK_CAT(register_, name)(#name, name);               \
  static void name()
#define CHECK(cond) \
  ((cond) ? (void)0 : check::fail(__FILE__, __LINE__, "CHECK(" #cond ")"))
#define CHECK_EQ(a, b) check::equal((a), (b), #a, #b, __FILE__, __LINE__)
