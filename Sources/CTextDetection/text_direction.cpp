// The C++ side of the text-direction classifier (the net run by ONNX Runtime, the crop by
// OpenCV): see include/text_direction.h.
#include "text_direction.h"

#include "flight.hpp"
#include "ort.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <string>

struct pc_textdir {
    OrtNet net;
    cv::Mat blob;  // 1 x 3 x 48 x 192, reused
};

extern "C" pc_textdir *pc_textdir_create(const uint8_t *onnx, size_t length, char *error, size_t error_length) {
    if (!onnx || length == 0) {
        pc_set_error(error, error_length, "bad arguments (an empty model)");
        return nullptr;
    }
    auto *dir = new (std::nothrow) pc_textdir();
    if (!dir) {
        pc_set_error(error, error_length, "out of memory");
        return nullptr;
    }
    if (!pc_make_net(dir->net, dir->blob, onnx, length, PC_TEXTDIR_HEIGHT, PC_TEXTDIR_WIDTH, PC_TEXTDIR_HEIGHT,
                     PC_TEXTDIR_WIDTH, error, error_length)) {
        delete dir;
        return nullptr;
    }
    return dir;
}

extern "C" void pc_textdir_destroy(pc_textdir *dir) {
    Flight flight;
    if (!flight.ok || !dir) return;
    pc_ort_free(dir->net);
    delete dir;
}

extern "C" int pc_textdir_run(pc_textdir *dir, const uint8_t *gray, int image_width, int image_height, size_t stride, int x,
                              int y, int box_width, int box_height, float *upside_down, char *error, size_t error_length) {
    if (!dir || !upside_down || !pc_box_inside(gray, image_width, image_height, x, y, box_width, box_height)) {
        pc_set_error(error, error_length, "bad arguments (empty image or a box outside it)");
        return -1;
    }
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return -1;
    }
    try {
        const int h = PC_TEXTDIR_HEIGHT, W = PC_TEXTDIR_WIDTH;
        // PaddleOCR's classifier resize: 48 high, the width the shape asks (rounded up), at most W.
        pc_fill_line_blob(gray, image_width, image_height, stride, x, y, box_width, box_height, dir->blob, W, h);
        const int64_t shape[4] = {1, 3, h, W};
        OrtOutput out;
        std::string why;
        if (!pc_ort_run(dir->net, dir->blob.ptr<float>(), shape, 4, out, why)) {
            pc_set_error(error, error_length, why.c_str());
            return -1;
        }
        // [1, 2]: the probabilities of 0° and 180° (the graph ends in a softmax).
        if (out.shape.size() != 2 || out.shape[0] != 1 || out.shape[1] != 2) {
            pc_set_error(error, error_length, "the network's output is not [1, 2]");
            return -1;
        }
        *upside_down = out.data[1];
        return 0;
    } catch (const std::exception &e) {
        pc_set_error(error, error_length, e.what());
        return -1;
    }
}
