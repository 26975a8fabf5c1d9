// A C face for loading ONNX Runtime, the library that runs the text detector's and the line
// recogniser's networks (ort.hpp). Swift calls it once, before making either.
#ifndef PRICECAM_ONNX_RUNTIME_H
#define PRICECAM_ONNX_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads ONNX Runtime's C library from `path` (dlopen) and makes the process's one runtime
/// environment. The first call that succeeds decides: later calls return 0 at once, whatever
/// their path. 0 on success, else -1 with the reason in `error` (`error_length` bytes,
/// NUL-terminated): the file cannot be loaded, is not ONNX Runtime, or is older than this
/// program needs.
int pc_ort_load(const char *path, char *error, size_t error_length);

/// The loaded library's version ("1.31.1"), or NULL before a load succeeded.
const char *pc_ort_version(void);

#ifdef __cplusplus
}
#endif

#endif
