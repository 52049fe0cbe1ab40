/* The glibc floor of libprof.so: every glibc function the agent and its static
 * libstdc++/libgcc reference is bound here to the oldest symbol version x86-64 has
 * (GLIBC_2.2.5 for most), so the library loads on glibc 2.17 (manylinux2014, RHEL 7)
 * and later, not only on the glibc 2.36 it is built on.
 *
 * Why definitions rather than `.symver` in a force-included header: most references
 * come from precompiled archives (libstdc++.a, libgcc_eh.a) that no header reaches. A
 * definition in libprof.so satisfies them at static link time; the version script
 * (libprof.lds) keeps it local, so the host process never sees it, and each one calls the
 * real function through a `.symver` alias of the old version. The caller of the real
 * dlopen/dlsym is still libprof.so, so RTLD_NEXT and $ORIGIN mean what they meant.
 *
 * Glibc 2.34 moved dl* and pthread_* from libdl.so.2/libpthread.so.0 into libc.so.6 under
 * new versions and kept the old ones as compatibility symbols; on an older glibc the old
 * versions live in libdl.so.2/libpthread.so.0, which the link therefore names in
 * DT_NEEDED (agent/BUILD.bazel). Functions newer than the floor are in
 * glibc_fallbacks.c. //agent:self_contained_test fails when a new reference appears
 * above the floor: add it here (or there).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

/* ret name(params) forwarding to name@version. */
#define PROF_FORWARD(ret, name, version, params, args)         \
  ret prof_glibc_##name params;                                \
  __asm__(".symver prof_glibc_" #name ", " #name "@" version); \
  ret name params { return prof_glibc_##name args; }

PROF_FORWARD(void*, dlopen, "GLIBC_2.2.5", (const char* file, int mode), (file, mode))
PROF_FORWARD(void*, dlsym, "GLIBC_2.2.5", (void* handle, const char* name), (handle, name))
PROF_FORWARD(void*, dlvsym, "GLIBC_2.2.5", (void* handle, const char* name, const char* version),
             (handle, name, version))
PROF_FORWARD(int, dlclose, "GLIBC_2.2.5", (void* handle), (handle))
PROF_FORWARD(char*, dlerror, "GLIBC_2.2.5", (void), ())
PROF_FORWARD(int, dladdr, "GLIBC_2.2.5", (const void* address, Dl_info* info), (address, info))
PROF_FORWARD(int, dladdr1, "GLIBC_2.3.3",
             (const void* address, Dl_info* info, void** extra, int flags),
             (address, info, extra, flags))
PROF_FORWARD(int, dlinfo, "GLIBC_2.3.3", (void* handle, int request, void* arg),
             (handle, request, arg))

PROF_FORWARD(int, pthread_create, "GLIBC_2.2.5",
             (pthread_t * thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg),
             (thread, attr, start, arg))
PROF_FORWARD(int, pthread_detach, "GLIBC_2.2.5", (pthread_t thread), (thread))
PROF_FORWARD(int, pthread_join, "GLIBC_2.2.5", (pthread_t thread, void** result), (thread, result))
PROF_FORWARD(int, pthread_kill, "GLIBC_2.2.5", (pthread_t thread, int signal), (thread, signal))
PROF_FORWARD(int, pthread_sigmask, "GLIBC_2.2.5", (int how, const sigset_t* set, sigset_t* old),
             (how, set, old))
PROF_FORWARD(int, pthread_once, "GLIBC_2.2.5", (pthread_once_t * once, void (*init)(void)),
             (once, init))
PROF_FORWARD(int, pthread_key_create, "GLIBC_2.2.5",
             (pthread_key_t * key, void (*destructor)(void*)), (key, destructor))
/* libstdc++'s gthreads tests this weak name to see whether threads are linked in. */
PROF_FORWARD(int, __pthread_key_create, "GLIBC_2.2.5",
             (pthread_key_t * key, void (*destructor)(void*)), (key, destructor))
PROF_FORWARD(int, pthread_key_delete, "GLIBC_2.2.5", (pthread_key_t key), (key))
PROF_FORWARD(void*, pthread_getspecific, "GLIBC_2.2.5", (pthread_key_t key), (key))
/* Spelled out: glibc declares `value` access(none), and GCC takes passing it on through
 * a declaration without that attribute for a read of uninitialized memory. */
int prof_glibc_pthread_setspecific(pthread_key_t key, void* value);
__asm__(".symver prof_glibc_pthread_setspecific, pthread_setspecific@GLIBC_2.2.5");
int pthread_setspecific(pthread_key_t key, const void* value) {
  return prof_glibc_pthread_setspecific(key, (void*)(uintptr_t)value);
}
PROF_FORWARD(int, pthread_mutex_trylock, "GLIBC_2.2.5", (pthread_mutex_t * mutex), (mutex))
PROF_FORWARD(int, pthread_setname_np, "GLIBC_2.12", (pthread_t thread, const char* name),
             (thread, name))
