/* Runs a command once and prints "<wall ms> <peak RSS KiB> <CPU ms>" of it (CPU: user +
 * system, steadier than wall time on a shared machine): fork, exec, wait4.
 * For scripts/startup_cost.py, which runs it per sample. Linked statically and written in
 * C so that its own memory stays tiny: Linux keeps a process's peak RSS across exec, and
 * a child forked from a big parent (a Python interpreter) would report the parent's.
 *
 *   spawn_cost COMMAND [ARGS...]      (the environment is passed through)
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double NowMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: spawn_cost COMMAND [ARGS...]\n");
    return 2;
  }
  const double start = NowMs();
  const pid_t child = fork();
  if (child < 0) return 2;
  if (child == 0) {
    execv(argv[1], argv + 1);
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(child, &status, 0, &usage) != child) return 2;
  const double elapsed = NowMs() - start;
  const double cpu = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
  printf("%.4f %ld %.4f\n", elapsed, usage.ru_maxrss, cpu);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
