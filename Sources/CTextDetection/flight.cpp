// The process's exit and the globals of ONNX Runtime and OpenCV: see flight.hpp.
#include "flight.hpp"

#include "ort.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

// Nets made and runs in flight, so that the process's exit waits for them: a live worker
// detects on a thread of its own, and exit() destroys OpenCV's globals under a net still
// running (a segmentation fault when `pricecam serve` stopped on SIGTERM during a detection,
// and when `live` exited on a second Ctrl-C while a worker made a net: OpenCV's DNN layer
// registry, which ran the nets until 2026-11-29, was gone). Exit handlers and static destructors
// run in the reverse order of their registration, and ONNX Runtime and OpenCV make some globals
// lazily (at the first session, the first run, the first parallel loop): so the handler is
// registered only after one net has been made and run and one image resized, and then runs
// before every destructor of those globals. Nets and runs asked for after it return an error at
// once.
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

void pc_prepare_runtime(const uint8_t *onnx, size_t length, int height, int width) {
    static std::once_flag once;
    std::call_once(once, [onnx, length, height, width] {
        cv::setNumThreads(1);
        OrtNet warm;
        std::string error;
        if (pc_ort_make(warm, onnx, length, error)) {
            std::vector<float> zeros(static_cast<size_t>(3) * height * width, 0.0f);
            const int64_t shape[4] = {1, 3, height, width};
            {
                OrtOutput out;  // released before its session
                pc_ort_run(warm, zeros.data(), shape, 4, out, error);  // a failure is the caller's to report
            }
            pc_ort_free(warm);
        }
        cv::Mat small(64, 64, CV_8UC1, cv::Scalar(0)), resized;
        cv::resize(small, resized, cv::Size(32, 32), 0, 0, cv::INTER_AREA);
        std::atexit(wait_for_runs);
    });
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

bool pc_make_net(OrtNet &net, cv::Mat &blob, const uint8_t *onnx, size_t length, int warm_height, int warm_width, int height,
                 int width, char *error, size_t error_length) {
    if (!pc_ort_loaded()) {
        pc_set_error(error, error_length, "ONNX Runtime is not loaded");
        return false;
    }
    pc_prepare_runtime(onnx, length, warm_height, warm_width);
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return false;
    }
    std::lock_guard<std::mutex> lock(pc_net_making());
    try {
        std::string why;
        if (!pc_ort_make(net, onnx, length, why)) {
            pc_set_error(error, error_length, why.c_str());
            return false;
        }
        int shape[4] = {1, 3, height, width};
        blob.create(4, shape, CV_32F);
        return true;
    } catch (const std::exception &e) {
        pc_ort_free(net);
        pc_set_error(error, error_length, e.what());
        return false;
    }
}

int pc_fill_line_blob(const uint8_t *gray, int image_width, int image_height, size_t stride, int x, int y, int box_width,
                      int box_height, cv::Mat &blob, int width, int height) {
    cv::Mat src(image_height, image_width, CV_8UC1, const_cast<uint8_t *>(gray), stride);
    cv::Mat crop = src(cv::Rect(x, y, box_width, box_height));
    const int sw =
        std::max(1, std::min(width, static_cast<int>(std::ceil(height * static_cast<double>(box_width) / box_height))));
    cv::Mat scaled;
    cv::resize(crop, scaled, cv::Size(sw, height), 0, 0, cv::INTER_LINEAR);
    pc_fill_blob(scaled, blob, width, height);
    return sw;
}

bool pc_box_inside(const uint8_t *gray, int image_width, int image_height, int x, int y, int box_width, int box_height) {
    return gray && image_width > 0 && image_height > 0 && x >= 0 && y >= 0 && box_width >= 2 && box_height >= 2 &&
           x + box_width <= image_width && y + box_height <= image_height;
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
