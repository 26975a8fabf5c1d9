// ONNX Runtime's C API, as much of it as pricecam uses, loaded at run time from the library
// scripts/onnxruntime/install.sh installs (include/onnx_runtime.h loads it). The detector and
// the recogniser each own one `OrtNet` per input size; one thread each (parallelism comes from
// one net per worker, as with Tesseract engines).
#ifndef PRICECAM_ORT_HPP
#define PRICECAM_ORT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct OrtSession;
struct OrtValue;

/// A network: its session and the names of its one input and first output.
struct OrtNet {
    OrtSession *session = nullptr;
    std::string input, output;
};

/// Whether pc_ort_load succeeded.
bool pc_ort_loaded();

/// Makes `net` from the ONNX model `model` (`length` bytes): one intra-op and one inter-op
/// thread, sequential, every graph optimisation. False with the reason in `error`.
bool pc_ort_make(OrtNet &net, const void *model, size_t length, std::string &error);
void pc_ort_free(OrtNet &net);

/// The output of one run: its shape and values, owned until `release`.
struct OrtOutput {
    OrtValue *value = nullptr;
    std::vector<int64_t> shape;
    const float *data = nullptr;
    OrtOutput() = default;
    OrtOutput(const OrtOutput &) = delete;
    OrtOutput &operator=(const OrtOutput &) = delete;
    ~OrtOutput();
};

/// Runs `net` on the float tensor `input` of shape `shape` (`dims` dimensions; the caller keeps
/// the buffer). False with the reason in `error`; the output must be float.
bool pc_ort_run(const OrtNet &net, float *input, const int64_t *shape, size_t dims, OrtOutput &out, std::string &error);

#endif
