// Loads local_launcher.so with RTLD_LOCAL (see there) and runs its launches; the path of
// the library is argv[1]. Exit status 0 when every launch succeeded.
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 3;
  }
  using Launch = int (*)(int);
  auto launch = reinterpret_cast<Launch>(dlsym(library, "LaunchFromLocalLibrary"));
  return launch ? launch(25) : 4;
}
