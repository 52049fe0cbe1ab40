// The glibc floor's fallbacks run only on a glibc older than this machine's, so they are
// tested here on their own, against the glibc functions they stand in for where this
// glibc has them. The test links :glibc_floor, so its own pthread and dl calls go through
// the floor's GLIBC_2.2.5 bindings too.
#include "agent/compat/glibc_fallbacks.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "catch2/catch.hpp"

namespace {

int FunctionOfThisProgram() { return 7; }

timespec MonotonicIn(std::chrono::milliseconds delay) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const int64_t target = now.tv_sec * 1000000000LL + now.tv_nsec +
                         std::chrono::duration_cast<std::chrono::nanoseconds>(delay).count();
  return timespec{static_cast<time_t>(target / 1000000000LL),
                  static_cast<long>(target % 1000000000LL)};
}

}  // namespace

TEST_CASE("the _dl_find_object fallback answers as glibc's own") {
  for (void* pc :
       {reinterpret_cast<void*>(&FunctionOfThisProgram), dlsym(RTLD_DEFAULT, "snprintf")}) {
    REQUIRE(pc != nullptr);
    dl_find_object expected{}, fallback{};
    REQUIRE(_dl_find_object(pc, &expected) == 0);
    REQUIRE(prof_compat_find_object_fallback(pc, &fallback) == 0);
    CHECK(fallback.dlfo_eh_frame == expected.dlfo_eh_frame);
    CHECK(fallback.dlfo_map_start == expected.dlfo_map_start);
    CHECK(fallback.dlfo_map_end >= expected.dlfo_map_end);  // glibc's ends at the last page
  }
  dl_find_object none{};
  CHECK(prof_compat_find_object_fallback(reinterpret_cast<void*>(16), &none) == -1);
}

TEST_CASE("the pthread_cond_clockwait fallback waits until the monotonic deadline") {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  pthread_mutex_lock(&mutex);

  SECTION("nobody signals: ETIMEDOUT, not before the deadline") {
    const auto start = std::chrono::steady_clock::now();
    const timespec deadline = MonotonicIn(std::chrono::milliseconds(40));
    int result = 0;
    do {  // a spurious wake-up returns 0 early: wait again, as every caller does
      result = prof_compat_clockwait_fallback(&cond, &mutex, CLOCK_MONOTONIC, &deadline);
    } while (result == 0);
    const auto waited = std::chrono::steady_clock::now() - start;
    CHECK(result == ETIMEDOUT);
    CHECK(waited >= std::chrono::milliseconds(39));
    CHECK(waited < std::chrono::seconds(5));
  }

  SECTION("signalled: 0, long before the deadline") {
    bool signalled = false;
    std::thread signaller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      pthread_mutex_lock(&mutex);
      signalled = true;
      pthread_cond_signal(&cond);
      pthread_mutex_unlock(&mutex);
    });
    const timespec deadline = MonotonicIn(std::chrono::seconds(30));
    int result = 0;
    while (!signalled && result == 0) {
      result = prof_compat_clockwait_fallback(&cond, &mutex, CLOCK_MONOTONIC, &deadline);
    }
    CHECK(result == 0);
    CHECK(signalled);
    pthread_mutex_unlock(&mutex);
    signaller.join();
    pthread_mutex_lock(&mutex);
  }
  pthread_mutex_unlock(&mutex);
}

TEST_CASE("the getentropy and arc4random fallbacks give fresh random bytes") {
  unsigned char first[64], second[64];
  REQUIRE(prof_compat_getentropy(first, sizeof(first)) == 0);
  REQUIRE(prof_compat_getentropy(second, sizeof(second)) == 0);
  CHECK(std::memcmp(first, second, sizeof(first)) != 0);
  unsigned char too_many[257];
  CHECK(prof_compat_getentropy(too_many, sizeof(too_many)) == -1);
  std::set<uint32_t> draws;
  for (int i = 0; i < 8; ++i) draws.insert(prof_compat_arc4random_fallback());
  CHECK(draws.size() > 1);
}

TEST_CASE("fstat64 (the floor's system call) sees the file's size") {
  char path[] = "/tmp/glibc_fallbacks_test.XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const std::string bytes(1234, 'x');
  REQUIRE(write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  struct stat64 status;
  CHECK(fstat64(fd, &status) == 0);
  CHECK(status.st_size == 1234);
  CHECK(fstat64(-1, &status) == -1);
  close(fd);
  unlink(path);
}

TEST_CASE("stat and lstat (the floor's system calls) see the file and the link") {
  char path[] = "/tmp/glibc_fallbacks_test.XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, "12345", 5) == 5);
  const std::string link = std::string(path) + ".link";
  REQUIRE(symlink(path, link.c_str()) == 0);
  struct stat status;
  CHECK(stat(link.c_str(), &status) == 0);
  CHECK(S_ISREG(status.st_mode));
  CHECK(status.st_size == 5);
  CHECK(lstat(link.c_str(), &status) == 0);
  CHECK(S_ISLNK(status.st_mode));
  CHECK(fstat(fd, &status) == 0);
  CHECK(status.st_size == 5);
  errno = 0;
  CHECK(stat("/nonexistent/glibc_fallbacks_test", &status) == -1);
  CHECK(errno == ENOENT);
  close(fd);
  unlink(link.c_str());
  unlink(path);
}

namespace {
std::string thread_exit_calls;
void Record(void* name) { thread_exit_calls += static_cast<const char*>(name); }
}  // namespace

TEST_CASE("the __cxa_thread_atexit_impl fallback runs a thread's calls at its end, newest first") {
  thread_exit_calls.clear();
  std::string seen_inside;
  std::thread worker([&] {
    static char first[] = "a", second[] = "b";
    REQUIRE(prof_compat_thread_atexit_fallback(Record, first, nullptr) == 0);
    REQUIRE(prof_compat_thread_atexit_fallback(Record, second, nullptr) == 0);
    seen_inside = thread_exit_calls;
  });
  worker.join();
  CHECK(seen_inside.empty());
  CHECK(thread_exit_calls == "ba");
}
