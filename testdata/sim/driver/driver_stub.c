/* The simulated driver library, libcuda.so.1: only its presence is simulated. A real
 * program with a statically linked runtime (nvcc's default) loads libcuda.so.1 and nothing
 * else of CUDA; this stub lets a program on the simulated platform look the same to a tool
 * that looks at the loaded objects. The simulated runtime does not call it. */
int cuInit(unsigned int flags) {
  (void)flags;
  return 0; /* CUDA_SUCCESS */
}

int cuDriverGetVersion(int* version) {
  if (!version) return 1; /* CUDA_ERROR_INVALID_VALUE */
  *version = 13000;
  return 0;
}
