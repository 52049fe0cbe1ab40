/* What libprof.so and the shipped profanalyze do where the running glibc is older than
 * the one they were built on: the fallbacks behind glibc_fallbacks.c's definitions,
 * callable on their own so that a test on a new glibc runs them (glibc_fallbacks_test.cc).
 * Hidden like everything there. */
#ifndef PROF_AGENT_COMPAT_GLIBC_FALLBACKS_H_
#define PROF_AGENT_COMPAT_GLIBC_FALLBACKS_H_

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pthread_cond_clockwait (glibc 2.30) on pthread_cond_timedwait: `deadline` on `clock`
 * becomes the same remaining time on CLOCK_REALTIME. */
int prof_compat_clockwait_fallback(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                                   const struct timespec* deadline);
/* _dl_find_object (glibc 2.35) on dl_iterate_phdr: the mapping and PT_GNU_EH_FRAME of
 * the object holding `pc`; 0, or -1 when none holds it. */
int prof_compat_find_object_fallback(void* pc, struct dl_find_object* result);
/* getentropy (glibc 2.25) on the getrandom system call; at most 256 bytes. */
int prof_compat_getentropy(void* buffer, size_t length);
/* arc4random (glibc 2.36) on prof_compat_getentropy. */
uint32_t prof_compat_arc4random_fallback(void);
/* __cxa_thread_atexit_impl (glibc 2.18) on a pthread key: `function(object)` when the
 * calling thread ends, or at exit() for the thread that calls it; newest first. */
int prof_compat_thread_atexit_fallback(void (*function)(void*), void* object, void* dso);

#ifdef __cplusplus
}
#endif

#endif  // PROF_AGENT_COMPAT_GLIBC_FALLBACKS_H_
