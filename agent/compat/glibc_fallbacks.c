/* The glibc functions libprof.so and the shipped profanalyze (their static libstdc++ and
 * libgcc included) reference that are newer than their glibc floor (2.17): each is defined here,
 * local to libprof.so, and calls glibc's own where the running glibc has it (looked up once, by
 * name), else does the same work with what glibc 2.17 has (the *_fallback functions of
 * glibc_fallbacks.h, tested on this machine's glibc by glibc_fallbacks_test.cc). See
 * glibc_floor.c for the rest.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent/compat/glibc_fallbacks.h"

/* libstdc++ (GCC 12) reads this glibc 2.32 variable to skip atomic reference counts in a
 * single-threaded process; 0 means "maybe threaded": always atomic, always correct. */
char __libc_single_threaded = 0;

/* glibc's definition of `name`, or NULL before the glibc that added it. Racy on first
 * use by design: every thread resolves the same pointer, and a pointer store is atomic. */
static void* Resolve(void** cache, const char* name) {
  static char kMissing;
  void* function = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!function) {
    function = dlsym(RTLD_DEFAULT, name);
    if (!function) function = &kMissing;
    __atomic_store_n(cache, function, __ATOMIC_RELEASE);
  }
  return function == &kMissing ? NULL : function;
}

int prof_compat_clockwait_fallback(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                                   const struct timespec* deadline) {
  if (clock == CLOCK_REALTIME) return pthread_cond_timedwait(cond, mutex, deadline);
  struct timespec now_clock, now_real;
  clock_gettime(clock, &now_clock);
  clock_gettime(CLOCK_REALTIME, &now_real);
  int64_t remaining = (deadline->tv_sec - now_clock.tv_sec) * 1000000000LL +
                      (deadline->tv_nsec - now_clock.tv_nsec);
  if (remaining < 0) remaining = 0;
  int64_t target = now_real.tv_sec * 1000000000LL + now_real.tv_nsec + remaining;
  struct timespec real_deadline = {target / 1000000000LL, target % 1000000000LL};
  return pthread_cond_timedwait(cond, mutex, &real_deadline);
}

/* glibc 2.30 (std::condition_variable waits on the steady clock). */
int pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                           const struct timespec* deadline) {
  static void* cache;
  typedef int (*Function)(pthread_cond_t*, pthread_mutex_t*, clockid_t, const struct timespec*);
  Function real = (Function)Resolve(&cache, "pthread_cond_clockwait");
  if (real) return real(cond, mutex, clock, deadline);
  return prof_compat_clockwait_fallback(cond, mutex, clock, deadline);
}

struct FindObject {
  uintptr_t pc;
  struct dl_find_object* result;
};

static int FindObjectOf(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  struct FindObject* search = (struct FindObject*)data;
  uintptr_t start = UINTPTR_MAX, end = 0, eh_frame = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)* header = &info->dlpi_phdr[i];
    uintptr_t address = info->dlpi_addr + header->p_vaddr;
    if (header->p_type == PT_LOAD) {
      if (address < start) start = address;
      if (address + header->p_memsz > end) end = address + header->p_memsz;
    } else if (header->p_type == PT_GNU_EH_FRAME) {
      eh_frame = address;
    }
  }
  if (search->pc < start || search->pc >= end) return 0;
  search->result->dlfo_flags = 0;
  search->result->dlfo_map_start = (void*)start;
  search->result->dlfo_map_end = (void*)end;
  search->result->dlfo_link_map = NULL;
  search->result->dlfo_eh_frame = (void*)eh_frame;
  return 1;
}

int prof_compat_find_object_fallback(void* pc, struct dl_find_object* result) {
  struct FindObject search = {(uintptr_t)pc, result};
  return dl_iterate_phdr(FindObjectOf, &search) == 1 && result->dlfo_eh_frame ? 0 : -1;
}

/* glibc 2.35 (libgcc's unwinder finds the unwind tables of a code address with it). */
int _dl_find_object(void* pc, struct dl_find_object* result) {
  static void* cache;
  typedef int (*Function)(void*, struct dl_find_object*);
  Function real = (Function)Resolve(&cache, "_dl_find_object");
  if (real) return real(pc, result);
  return prof_compat_find_object_fallback(pc, result);
}

/* glibc 2.25 and 2.36 (std::random_device). Before them: the getrandom system call. */
int prof_compat_getentropy(void* buffer, size_t length) {
  if (length > 256) {
    errno = EIO;
    return -1;
  }
  size_t done = 0;
  while (done < length) {
    long got = syscall(SYS_getrandom, (char*)buffer + done, length - done, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    done += (size_t)got;
  }
  return 0;
}

int getentropy(void* buffer, size_t length) { return prof_compat_getentropy(buffer, length); }

uint32_t prof_compat_arc4random_fallback(void) {
  uint32_t value = 0;
  if (prof_compat_getentropy(&value, sizeof(value)) != 0) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    value = (uint32_t)(now.tv_nsec ^ (now.tv_sec << 20) ^ getpid());
  }
  return value;
}

uint32_t arc4random(void) {
  static void* cache;
  typedef uint32_t (*Function)(void);
  Function real = (Function)Resolve(&cache, "arc4random");
  return real ? real() : prof_compat_arc4random_fallback();
}

/* glibc 2.33 made fstat64 a function (libstdc++'s basic_file); before, a header inline
 * around __fxstat64. The system call is what both end in on x86-64. */
int fstat64(int fd, struct stat64* buffer) { return (int)syscall(SYS_fstat, fd, buffer); }

/* glibc 2.33 made stat and lstat functions too (profanalyze's std::filesystem). */
int stat(const char* path, struct stat* buffer) { return (int)syscall(SYS_stat, path, buffer); }
int lstat(const char* path, struct stat* buffer) { return (int)syscall(SYS_lstat, path, buffer); }
int fstat(int fd, struct stat* buffer) { return (int)syscall(SYS_fstat, fd, buffer); }

/* The calls one thread registered, newest first. */
struct ThreadExitCall {
  void (*function)(void*);
  void* object;
  struct ThreadExitCall* next;
};
static pthread_key_t thread_exit_key;
static pthread_once_t thread_exit_once = PTHREAD_ONCE_INIT;

/* Runs a thread's calls, newest first, and any a call registers meanwhile. */
static void RunThreadExitCalls(void* calls) {
  while (calls) {
    pthread_setspecific(thread_exit_key, NULL);
    for (struct ThreadExitCall* call = calls; call;) {
      struct ThreadExitCall* next = call->next;
      call->function(call->object);
      free(call);
      call = next;
    }
    calls = pthread_getspecific(thread_exit_key);
  }
}

/* The thread that calls exit() runs no key destructor: its calls run at exit. */
static void RunExitingThreadCalls(void) {
  RunThreadExitCalls(pthread_getspecific(thread_exit_key));
}

static void CreateThreadExitKey(void) {
  pthread_key_create(&thread_exit_key, RunThreadExitCalls);
  atexit(RunExitingThreadCalls);
}

int prof_compat_thread_atexit_fallback(void (*function)(void*), void* object, void* dso) {
  (void)dso;  // for unloading a library early, which a program's calls never need
  pthread_once(&thread_exit_once, CreateThreadExitKey);
  struct ThreadExitCall* call = (struct ThreadExitCall*)malloc(sizeof(*call));
  if (!call) return -1;
  call->function = function;
  call->object = object;
  call->next = (struct ThreadExitCall*)pthread_getspecific(thread_exit_key);
  pthread_setspecific(thread_exit_key, call);
  return 0;
}

/* glibc 2.18 (the destructors of thread_local objects, libstdc++'s __cxa_thread_atexit). */
int __cxa_thread_atexit_impl(void (*function)(void*), void* object, void* dso) {
  static void* cache;
  typedef int (*Function)(void (*)(void*), void*, void*);
  Function real = (Function)Resolve(&cache, "__cxa_thread_atexit_impl");
  if (real) return real(function, object, dso);
  return prof_compat_thread_atexit_fallback(function, object, dso);
}
