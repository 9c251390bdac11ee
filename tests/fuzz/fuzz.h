/*
 * fuzz.h: what the libFuzzer harnesses of tests/fuzz share.
 *
 * Each harness defines LLVMFuzzerTestOneInput().  Built with
 * -fsanitize=fuzzer (./configure --enable-fuzzing) libFuzzer drives it;
 * linked with replay.c instead it is a plain program that runs the files
 * named on its command line through it, for the regression inputs that
 * make check replays (tests/data/fuzz-regress/<harness>/).
 *
 * The readers of lib/ read files, so the input is handed to them as a
 * memory file (memfd_create(2)) opened by its /proc/self/fd name.
 */
#ifndef PV_FUZZ_H
#define PV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Put data[0..size) in the harness's memory file and return a path that
 * opens it from its start; valid until the next call.
 */
const char *fuzz_file(const uint8_t *data, size_t size);
/* A stream that discards what is written (/dev/null), opened once. */
FILE *fuzz_devnull(void);

#endif
