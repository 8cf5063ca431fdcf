// CFuzzDriver: libFuzzer's driver entry, so that each fuzz target's own `main` (which SwiftPM names
// and links itself) can hand control to libFuzzer. No logic lives here.
#ifndef CFUZZ_DRIVER_H
#define CFUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/// libFuzzer's driver (compiler-rt FuzzerInterface.h), linked in by -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// Runs libFuzzer with the process's arguments over `callback`, then exits with its status.
static inline void cfuzz_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback));
}

#endif
