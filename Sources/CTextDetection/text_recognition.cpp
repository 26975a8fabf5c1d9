// The OpenCV side of line recognition: see include/text_recognition.h.
#include "text_recognition.h"

#include "flight.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>

struct pc_textrec {
    cv::dnn::Net net;
    int width;
    cv::Mat blob;  // 1 x 3 x 48 x width, reused
};

extern "C" pc_textrec *pc_textrec_create(const uint8_t *onnx, size_t length, int width, char *error, size_t error_length) {
    if (!onnx || length == 0 || width <= 0 || width % 8) {
        pc_set_error(error, error_length, "bad arguments (empty model or a width that is not a multiple of 8)");
        return nullptr;
    }
    pc_prepare_opencv(onnx, length, PC_TEXTREC_HEIGHT, width);
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(pc_net_making());
    try {
        auto *rec = new pc_textrec();
        rec->net = pc_read_net(onnx, length);
        if (rec->net.empty()) {
            delete rec;
            pc_set_error(error, error_length, "OpenCV read no network from the file");
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
    if (flight.ok) delete rec;
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
        rec->net.setInput(rec->blob);
        cv::Mat out = rec->net.forward();
        // [1, T, C]: per step, the classes' probabilities (the graph ends in a softmax).
        if (out.dims != 3 || out.size[0] != 1) {
            pc_set_error(error, error_length, "the network's output is not [1, steps, classes]");
            return -1;
        }
        const int steps = out.size[1], n = out.size[2];
        const float *p = out.ptr<float>();
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
