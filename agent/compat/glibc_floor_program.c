/* The glibc floor of a program (//release:profanalyze), on top of glibc_floor.c and
 * glibc_fallbacks.c: what a program needs and libprof.so does not.
 *
 * log2: glibc 2.29 gave exp, exp2, log, log2 and pow new versions (new implementations,
 * the same results); the GLIBC_2.2.5 ones are still in every libm.
 *
 * __libc_start_main: the program's start-up code, Scrt1.o from the glibc it is linked on,
 * calls it, and glibc 2.34 gave it a new version. Since 2.34 Scrt1.o passes no
 * constructor-runner (`init`, NULL) and __libc_start_main@GLIBC_2.34 runs the program's
 * DT_INIT and .init_array itself; before 2.34 the program passed __libc_csu_init (from
 * libc_nonshared.a, gone since) and __libc_start_main@GLIBC_2.2.5 ran nothing without it.
 *
 * This definition takes the place of glibc's for Scrt1.o (hidden, as glibc_floor.c's) and
 * calls __libc_start_main@GLIBC_2.2.5, which every glibc from 2.2.5 on has, with a
 * constructor-runner of its own: glibc < 2.34 calls it as it called __libc_csu_init, and
 * glibc >= 2.34 calls it instead of running the constructors itself (the path it keeps for
 * programs linked before 2.34), so each constructor runs once either way. The
 * destructors need nothing: every glibc's dynamic loader runs the program's .fini_array
 * and DT_FINI at exit (_dl_fini), and __libc_csu_fini was empty for dynamic programs.
 * .preinit_array is the dynamic loader's too (_dl_init).
 */
#include <stddef.h>

double prof_glibc_log2(double x);
__asm__(".symver prof_glibc_log2, log2@GLIBC_2.2.5");
double log2(double x) { return prof_glibc_log2(x); }

typedef int (*ProgramMain)(int argc, char** argv, char** envp);
typedef void (*Constructor)(int argc, char** argv, char** envp);

/* Defined by the static linker (.init_array's bounds) and crti.o (the DT_INIT code). */
extern Constructor __init_array_start[] __attribute__((visibility("hidden")));
extern Constructor __init_array_end[] __attribute__((visibility("hidden")));
extern void _init(void) __attribute__((visibility("hidden")));

/* What __libc_csu_init did for a dynamically linked program. */
static int RunConstructors(int argc, char** argv, char** envp) {
  _init();
  size_t count = (size_t)(__init_array_end - __init_array_start);
  for (size_t i = 0; i < count; ++i) __init_array_start[i](argc, argv, envp);
  return 0;
}

int prof_glibc___libc_start_main(ProgramMain main, int argc, char** argv, ProgramMain init,
                                 void (*fini)(void), void (*rtld_fini)(void), void* stack_end);
__asm__(".symver prof_glibc___libc_start_main, __libc_start_main@GLIBC_2.2.5");

int __libc_start_main(ProgramMain main, int argc, char** argv, ProgramMain init, void (*fini)(void),
                      void (*rtld_fini)(void), void* stack_end) {
  return prof_glibc___libc_start_main(main, argc, argv, init ? init : RunConstructors, fini,
                                      rtld_fini, stack_end);
}
