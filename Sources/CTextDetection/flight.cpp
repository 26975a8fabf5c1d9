// The process's exit and OpenCV's globals: see flight.hpp.
#include "flight.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

// Nets made and runs in flight, so that the process's exit waits for them: a live worker
// detects on a thread of its own, and exit() destroys OpenCV's globals under a net still
// running (a segmentation fault when `pricecam serve` stopped on SIGTERM during a detection,
// and when `live` exited on a second Ctrl-C while a worker made a net: OpenCV's layer
// registry was gone). Exit handlers and static destructors run in the reverse order of their
// registration, and OpenCV makes its globals lazily (the layer registry at the first net read,
// others at the first forward pass): so the handler is registered only after one net has been
// made and run, and then runs before every destructor of those globals. Nets and runs asked
// for after it return an error at once.
namespace {
std::mutex flight_lock;
std::condition_variable flight_done;
int in_flight = 0;
bool exiting = false;

void wait_for_runs() {
    std::unique_lock<std::mutex> lock(flight_lock);
    exiting = true;
    flight_done.wait_for(lock, std::chrono::seconds(5), [] { return in_flight == 0; });
}
}  // namespace

void pc_prepare_opencv(const uint8_t *onnx, size_t length, int height, int width) {
    static std::once_flag once;
    std::call_once(once, [onnx, length, height, width] {
        cv::setNumThreads(1);
        try {
            cv::dnn::Net warm = pc_read_net(onnx, length);
            if (!warm.empty()) {
                int shape[4] = {1, 3, height, width};
                warm.setInput(cv::Mat(4, shape, CV_32F, cv::Scalar(0)));
                warm.forward();
            }
        } catch (const std::exception &) {
            // A bad model: the caller's read reports it.
        }
        std::atexit(wait_for_runs);
    });
}

cv::dnn::Net pc_read_net(const void *onnx, size_t length) {
    cv::dnn::Net net = cv::dnn::readNetFromONNX(static_cast<const char *>(onnx), length);
    if (!net.empty()) {
        net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    }
    return net;
}

void pc_fill_blob(const cv::Mat &scaled, cv::Mat &blob, int width, int height) {
    const int plane = width * height;
    float *out = blob.ptr<float>();
    std::fill(out, out + 3 * plane, 0.0f);
    for (int y = 0; y < scaled.rows; y++) {
        const uint8_t *row = scaled.ptr<uint8_t>(y);
        float *line = out + y * width;
        for (int x = 0; x < scaled.cols; x++) {
            line[x] = row[x] / 127.5f - 1.0f;
        }
    }
    for (int c = 1; c < 3; c++) {
        std::memcpy(out + c * plane, out, sizeof(float) * plane);
    }
}

void pc_set_error(char *error, size_t length, const char *what) {
    if (error && length > 0) {
        std::snprintf(error, length, "%s", what);
    }
}

std::mutex &pc_net_making() {
    static std::mutex making;
    return making;
}

Flight::Flight() {
    std::lock_guard<std::mutex> lock(flight_lock);
    ok = !exiting;
    if (ok) in_flight++;
}

Flight::~Flight() {
    if (!ok) return;
    std::lock_guard<std::mutex> lock(flight_lock);
    in_flight--;
    flight_done.notify_all();
}
