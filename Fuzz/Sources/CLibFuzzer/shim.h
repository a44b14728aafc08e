// libFuzzer's entry for programs that have their own main (see "Using libFuzzer as a library"
// in LLVM's libFuzzer docs). `-sanitize=fuzzer` links the runtime that defines it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
