// The C++ side of line recognition (the net run by ONNX Runtime, the crop by OpenCV): see
// include/text_recognition.h.
#include "text_recognition.h"

#include "flight.hpp"
#include "ort.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

struct pc_textrec {
    OrtNet net;
    int width;
    cv::Mat blob;  // 1 x 3 x 48 x width, reused
};

extern "C" pc_textrec *pc_textrec_create(const uint8_t *onnx, size_t length, int width, char *error, size_t error_length) {
    if (!onnx || length == 0 || width <= 0 || width % 8) {
        pc_set_error(error, error_length, "bad arguments (empty model or a width that is not a multiple of 8)");
        return nullptr;
    }
    if (!pc_ort_loaded()) {
        pc_set_error(error, error_length, "ONNX Runtime is not loaded");
        return nullptr;
    }
    pc_prepare_runtime(onnx, length, PC_TEXTREC_HEIGHT, width);
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(pc_net_making());
    try {
        auto *rec = new pc_textrec();
        std::string why;
        if (!pc_ort_make(rec->net, onnx, length, why)) {
            delete rec;
            pc_set_error(error, error_length, why.c_str());
            return nullptr;
        }
        rec->width = width;
        int shape[4] = {1, 3, PC_TEXTREC_HEIGHT, width};
        rec->blob.create(4, shape, CV_32F);
        return rec;
    } catch (const std::exception &e) {
        pc_set_error(error, error_length, e.what());
        return nullptr;
    }
}

extern "C" void pc_textrec_destroy(pc_textrec *rec) {
    Flight flight;
    if (!flight.ok || !rec) return;
    pc_ort_free(rec->net);
    delete rec;
}

extern "C" int pc_textrec_run(pc_textrec *rec, const uint8_t *gray, int image_width, int image_height, size_t stride, int x,
                              int y, int box_width, int box_height, int32_t *classes, float *probabilities, int capacity,
                              int *scaled_width, char *error, size_t error_length) {
    if (!rec || !gray || !classes || !probabilities || !scaled_width || capacity <= 0 || image_width <= 0 ||
        image_height <= 0 || x < 0 || y < 0 || box_width < 2 || box_height < 2 || x + box_width > image_width ||
        y + box_height > image_height) {
        pc_set_error(error, error_length, "bad arguments (empty image or a box outside it)");
        return -1;
    }
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return -1;
    }
    try {
        const int h = PC_TEXTREC_HEIGHT, W = rec->width;
        cv::Mat src(image_height, image_width, CV_8UC1, const_cast<uint8_t *>(gray), stride);
        cv::Mat crop = src(cv::Rect(x, y, box_width, box_height));
        // PaddleOCR's resize_norm_img: 48 high, the width the shape asks (rounded up), at most W.
        const int sw = std::max(1, std::min(W, static_cast<int>(std::ceil(h * static_cast<double>(box_width) / box_height))));
        cv::Mat scaled;
        cv::resize(crop, scaled, cv::Size(sw, h), 0, 0, cv::INTER_LINEAR);
        pc_fill_blob(scaled, rec->blob, W, h);
        const int64_t shape[4] = {1, 3, h, W};
        OrtOutput out;
        std::string why;
        if (!pc_ort_run(rec->net, rec->blob.ptr<float>(), shape, 4, out, why)) {
            pc_set_error(error, error_length, why.c_str());
            return -1;
        }
        // [1, T, C]: per step, the classes' probabilities (the graph ends in a softmax).
        if (out.shape.size() != 3 || out.shape[0] != 1) {
            pc_set_error(error, error_length, "the network's output is not [1, steps, classes]");
            return -1;
        }
        const int steps = static_cast<int>(out.shape[1]), n = static_cast<int>(out.shape[2]);
        const float *p = out.data;
        for (int t = 0; t < std::min(steps, capacity); t++) {
            const float *row = p + static_cast<size_t>(t) * n;
            const int best = static_cast<int>(std::max_element(row, row + n) - row);
            classes[t] = best;
            probabilities[t] = row[best];
        }
        *scaled_width = sw;
        return std::min(steps, capacity);
    } catch (const std::exception &e) {
        pc_set_error(error, error_length, e.what());
        return -1;
    }
}
