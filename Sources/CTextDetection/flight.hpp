// The process's exit and the globals of ONNX Runtime and OpenCV: see flight.cpp. Shared by the
// detector and the recogniser, whose nets live in the same process.
#ifndef PRICECAM_FLIGHT_HPP
#define PRICECAM_FLIGHT_HPP

#include "ort.hpp"

#include <opencv2/core.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>

/// The first time only (ONNX Runtime loaded): sets OpenCV to one thread (its setting is
/// process-wide and not safe to change from two threads at once, as two workers making their
/// nets would), makes a net of the ONNX model `onnx` and runs it once on a zero input of 1 x 3 x
/// `height` x `width`, and resizes a small image, so the runtime's and OpenCV's lazily made
/// globals exist, then registers the exit handler that waits for nets in flight. Later calls do
/// nothing. A model the runtime cannot read is left to the caller's make.
void pc_prepare_runtime(const uint8_t *onnx, size_t length, int height, int width);

/// `scaled` (8-bit gray) into `blob`, a 1 x 3 x `height` x `width` input at least its size, as
/// both PP-OCR networks take it: three equal planes of x / 127.5 - 1 (mean 0.5, deviation 0.5
/// on [0, 1]) at the top left, the rest 0.
void pc_fill_blob(const cv::Mat &scaled, cv::Mat &blob, int width, int height);

/// Makes `net` from the ONNX model `onnx` (`length` bytes) and `blob` as its 1 x 3 x `height` x
/// `width` input, one net at a time (`pc_net_making`), after `pc_prepare_runtime` (warmed on a
/// 1 x 3 x `warm_height` x `warm_width` input). False, with the reason in `error`, when ONNX
/// Runtime is not loaded, the process is exiting or the model cannot be read.
bool pc_make_net(OrtNet &net, cv::Mat &blob, const uint8_t *onnx, size_t length, int warm_height, int warm_width, int height,
                 int width, char *error, size_t error_length);

/// The rectangle `x, y, box_width, box_height` of an 8-bit gray image (`stride` bytes per row),
/// resized to `height` px high keeping its shape (its width rounded up, at most `width`: a
/// wider line is squeezed), into `blob` by `pc_fill_blob`: PaddleOCR's input for a line of
/// text (recognition and direction). Returns the scaled width. OpenCV may throw.
int pc_fill_line_blob(const uint8_t *gray, int image_width, int image_height, size_t stride, int x, int y, int box_width,
                      int box_height, cv::Mat &blob, int width, int height);

/// Whether `x, y, box_width, box_height` is a box of 2 x 2 px or more inside a non-empty
/// `image_width` x `image_height` image at `gray`.
bool pc_box_inside(const uint8_t *gray, int image_width, int image_height, int x, int y, int box_width, int box_height);

/// `what` into `error` (`length` bytes, NUL-terminated), when there is room.
void pc_set_error(char *error, size_t length, const char *what);

/// Held while a net is read from its model: nets are made one at a time (rarely: a few per
/// worker), whichever model they come from.
std::mutex &pc_net_making();

/// A net being made, run or destroyed: the process's exit waits for it (at most 5 s). `ok`
/// is false once the process is exiting: the caller must not touch the runtime or OpenCV then.
struct Flight {
    bool ok;
    Flight();
    ~Flight();
    Flight(const Flight &) = delete;
    Flight &operator=(const Flight &) = delete;
};

#endif
