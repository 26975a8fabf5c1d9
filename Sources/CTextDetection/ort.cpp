// ONNX Runtime loaded at run time: see ort.hpp and include/onnx_runtime.h.
//
// The C API is a table of function pointers (`OrtApi`) that the library hands out through its
// one exported symbol, OrtGetApiBase. ONNX Runtime only ever appends to that table, so a
// function's position in it is part of the library's ABI; this file calls the few it needs by
// position (as they stand in onnxruntime_c_api.h of API version 13, ONNX Runtime 1.13, which
// every later version keeps) rather than through the header, which Debian does not package.
#include "ort.hpp"

#include "onnx_runtime.h"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <string>

struct OrtEnv;
struct OrtStatus;
struct OrtSessionOptions;
struct OrtMemoryInfo;
struct OrtTensorTypeAndShapeInfo;
struct OrtAllocator;

namespace {
// Positions in OrtApi.
enum Fn {
    GetErrorMessage = 2,
    CreateEnv = 3,
    CreateSessionFromArray = 8,
    Run = 9,
    CreateSessionOptions = 10,
    SetSessionExecutionMode = 13,
    DisableMemPattern = 17,
    SetSessionGraphOptimizationLevel = 23,
    SetIntraOpNumThreads = 24,
    SetInterOpNumThreads = 25,
    SessionGetInputName = 36,
    SessionGetOutputName = 37,
    CreateTensorWithDataAsOrtValue = 49,
    GetTensorMutableData = 51,
    GetTensorElementType = 60,
    GetDimensionsCount = 61,
    GetDimensions = 62,
    GetTensorTypeAndShape = 65,
    CreateCpuMemoryInfo = 69,
    AllocatorFree = 76,
    GetAllocatorWithDefaultOptions = 78,
    ReleaseStatus = 93,
    ReleaseMemoryInfo = 94,
    ReleaseSession = 95,
    ReleaseValue = 96,
    ReleaseTensorTypeAndShapeInfo = 99,
    ReleaseSessionOptions = 100,
};
// The API version asked for: the table as it stands in version 13 holds every position above.
constexpr unsigned kApiVersion = 13;
constexpr int kFloat = 1;               // ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT
constexpr int kSequential = 0;          // ORT_SEQUENTIAL
constexpr int kAllOptimisations = 99;   // ORT_ENABLE_ALL
constexpr int kLogWarnings = 2;         // ORT_LOGGING_LEVEL_WARNING
constexpr int kArenaAllocator = 1;      // OrtArenaAllocator
constexpr int kDefaultMemory = 0;       // OrtMemTypeDefault

struct ApiBase {
    const void *const *(*GetApi)(unsigned version);
    const char *(*GetVersionString)();
};

const void *const *api = nullptr;
const char *version = nullptr;
OrtEnv *env = nullptr;
OrtMemoryInfo *cpu = nullptr;
std::mutex loading;

template <typename F>
F call(Fn f) {
    return reinterpret_cast<F>(const_cast<void *>(api[f]));
}

// The status's message (and the status released); empty for success.
bool failed(OrtStatus *status, std::string &error) {
    if (!status) return false;
    error = call<const char *(*)(const OrtStatus *)>(GetErrorMessage)(status);
    call<void (*)(OrtStatus *)>(ReleaseStatus)(status);
    return true;
}

void set_error(char *error, size_t length, const std::string &what) {
    if (error && length > 0) std::snprintf(error, length, "%s", what.c_str());
}

// A name the session gives (input or output 0), copied, its buffer freed.
bool name_of(OrtSession *session, Fn which, std::string &out, std::string &error) {
    OrtAllocator *allocator = nullptr;
    if (failed(call<OrtStatus *(*)(OrtAllocator **)>(GetAllocatorWithDefaultOptions)(&allocator), error)) return false;
    char *name = nullptr;
    if (failed(call<OrtStatus *(*)(const OrtSession *, size_t, OrtAllocator *, char **)>(which)(session, 0, allocator, &name), error))
        return false;
    out = name;
    return !failed(call<OrtStatus *(*)(OrtAllocator *, void *)>(AllocatorFree)(allocator, name), error);
}
}  // namespace

extern "C" int pc_ort_load(const char *path, char *error, size_t error_length) {
    std::lock_guard<std::mutex> lock(loading);
    if (api) return 0;
    if (!path) {
        set_error(error, error_length, "no library path");
        return -1;
    }
    // Never unloaded: the runtime lives as long as the process.
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        set_error(error, error_length, std::string("cannot load it: ") + (why ? why : "dlopen failed"));
        return -1;
    }
    auto base_of = reinterpret_cast<const ApiBase *(*)()>(dlsym(library, "OrtGetApiBase"));
    const ApiBase *base = base_of ? base_of() : nullptr;
    if (!base) {
        set_error(error, error_length, "it has no OrtGetApiBase: not ONNX Runtime's C library");
        return -1;
    }
    const void *const *table = base->GetApi(kApiVersion);
    if (!table) {
        set_error(error, error_length,
                  std::string("ONNX Runtime ") + base->GetVersionString() + " is older than 1.13, which this program needs");
        return -1;
    }
    api = table;
    std::string why;
    if (failed(call<OrtStatus *(*)(int, const char *, OrtEnv **)>(CreateEnv)(kLogWarnings, "pricecam", &env), why) ||
        failed(call<OrtStatus *(*)(int, int, OrtMemoryInfo **)>(CreateCpuMemoryInfo)(kArenaAllocator, kDefaultMemory, &cpu), why)) {
        api = nullptr;
        set_error(error, error_length, "ONNX Runtime would not start: " + why);
        return -1;
    }
    version = base->GetVersionString();
    return 0;
}

extern "C" const char *pc_ort_version(void) {
    std::lock_guard<std::mutex> lock(loading);
    return api ? version : nullptr;
}

bool pc_ort_loaded() {
    std::lock_guard<std::mutex> lock(loading);
    return api != nullptr;
}

bool pc_ort_make(OrtNet &net, const void *model, size_t length, std::string &error) {
    if (!pc_ort_loaded()) {
        error = "ONNX Runtime is not loaded";
        return false;
    }
    OrtSessionOptions *options = nullptr;
    if (failed(call<OrtStatus *(*)(OrtSessionOptions **)>(CreateSessionOptions)(&options), error)) return false;
    using SetInt = OrtStatus *(*)(OrtSessionOptions *, int);
    OrtSession *session = nullptr;
    const bool ok = !failed(call<SetInt>(SetIntraOpNumThreads)(options, 1), error) &&
                    !failed(call<SetInt>(SetInterOpNumThreads)(options, 1), error) &&
                    !failed(call<SetInt>(SetSessionExecutionMode)(options, kSequential), error) &&
                    !failed(call<SetInt>(SetSessionGraphOptimizationLevel)(options, kAllOptimisations), error) &&
                    // No memory pattern: with one, the second run at each input size traces its
                    // buffers into one block and costs 2-4 times a plain run (the detector on one
                    // core: 550-830 ms at 928 x 1600 against 250), and every image of a batch, a
                    // frame or a re-detection brings sizes of its own. Runs after that are no
                    // faster with the pattern (docs/benchmarks/2026-12-04-no-memory-pattern.md).
                    !failed(call<OrtStatus *(*)(OrtSessionOptions *)>(DisableMemPattern)(options), error) &&
                    !failed(call<OrtStatus *(*)(const OrtEnv *, const void *, size_t, const OrtSessionOptions *, OrtSession **)>(
                                CreateSessionFromArray)(env, model, length, options, &session),
                            error);
    call<void (*)(OrtSessionOptions *)>(ReleaseSessionOptions)(options);
    if (!ok) return false;
    net.session = session;
    if (!name_of(session, SessionGetInputName, net.input, error) || !name_of(session, SessionGetOutputName, net.output, error)) {
        pc_ort_free(net);
        return false;
    }
    return true;
}

void pc_ort_free(OrtNet &net) {
    if (net.session) call<void (*)(OrtSession *)>(ReleaseSession)(net.session);
    net.session = nullptr;
}

OrtOutput::~OrtOutput() {
    if (value) call<void (*)(OrtValue *)>(ReleaseValue)(value);
}

bool pc_ort_run(const OrtNet &net, float *input, const int64_t *shape, size_t dims, OrtOutput &out, std::string &error) {
    size_t count = 1;
    for (size_t i = 0; i < dims; i++) count *= static_cast<size_t>(shape[i]);
    OrtValue *tensor = nullptr;
    if (failed(call<OrtStatus *(*)(const OrtMemoryInfo *, void *, size_t, const int64_t *, size_t, int, OrtValue **)>(
                   CreateTensorWithDataAsOrtValue)(cpu, input, count * sizeof(float), shape, dims, kFloat, &tensor),
               error))
        return false;
    const char *in_name = net.input.c_str(), *out_name = net.output.c_str();
    OrtValue *result = nullptr;
    const bool ran =
        !failed(call<OrtStatus *(*)(OrtSession *, const void *, const char *const *, const OrtValue *const *, size_t,
                                    const char *const *, size_t, OrtValue **)>(Run)(net.session, nullptr, &in_name, &tensor, 1,
                                                                                    &out_name, 1, &result),
                error);
    call<void (*)(OrtValue *)>(ReleaseValue)(tensor);
    if (!ran) return false;
    out.value = result;
    OrtTensorTypeAndShapeInfo *info = nullptr;
    if (failed(call<OrtStatus *(*)(const OrtValue *, OrtTensorTypeAndShapeInfo **)>(GetTensorTypeAndShape)(result, &info), error))
        return false;
    int type = 0;
    size_t n = 0;
    bool ok = !failed(call<OrtStatus *(*)(const OrtTensorTypeAndShapeInfo *, int *)>(GetTensorElementType)(info, &type), error) &&
              !failed(call<OrtStatus *(*)(const OrtTensorTypeAndShapeInfo *, size_t *)>(GetDimensionsCount)(info, &n), error);
    if (ok) {
        out.shape.assign(n, 0);
        ok = !failed(call<OrtStatus *(*)(const OrtTensorTypeAndShapeInfo *, int64_t *, size_t)>(GetDimensions)(info, out.shape.data(), n),
                     error);
    }
    call<void (*)(OrtTensorTypeAndShapeInfo *)>(ReleaseTensorTypeAndShapeInfo)(info);
    if (!ok) return false;
    if (type != kFloat) {
        error = "the network's output is not float";
        return false;
    }
    void *data = nullptr;
    if (failed(call<OrtStatus *(*)(OrtValue *, void **)>(GetTensorMutableData)(result, &data), error)) return false;
    out.data = static_cast<const float *>(data);
    return true;
}
