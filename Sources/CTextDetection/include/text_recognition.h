// A C face for the line recogniser (a CRNN network with a CTC head, PP-OCRv4's, run by ONNX
// Runtime, see onnx_runtime.h), so Swift never touches C++ or OpenCV types. One owner per `pc_textrec` (not
// thread-safe: one per worker).
#ifndef PRICECAM_TEXT_RECOGNITION_H
#define PRICECAM_TEXT_RECOGNITION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pc_textrec pc_textrec;

/// The input height every recogniser graph takes.
#define PC_TEXTREC_HEIGHT 48

/// Loads an ONNX recogniser from `onnx` (`length` bytes) for inputs of 1 x 3 x 48 x up to
/// `width` columns (the model takes any width; each run gives its own). Needs pc_ort_load
/// first. NULL on failure, with the reason in `error` (`error_length` bytes, NUL-terminated).
pc_textrec *pc_textrec_create(const uint8_t *onnx, size_t length, int width, char *error, size_t error_length);
void pc_textrec_destroy(pc_textrec *rec);

/// Reads the rectangle `x, y, box_width, box_height` of an 8-bit gray image (`stride` bytes per
/// row) in an input `input_width` columns wide (a multiple of 8, at most the `width` the
/// recogniser was made for): the crop is resized to 48 px high keeping its shape (squeezed to
/// `input_width` when wider), given as three equal channels scaled to [-1, 1] at the left of the input, the rest 0
/// (PaddleOCR's recognition input). For each time step of the output writes the likeliest class
/// to `classes` and its probability to `probabilities` (at most `capacity` steps) and sets
/// `*scaled_width` to the crop's width in the input (a step covers input width / steps
/// pixels). Returns the number of steps, or -1 with the reason in `error`.
int pc_textrec_run(pc_textrec *rec, const uint8_t *gray, int image_width, int image_height, size_t stride, int x, int y,
                   int box_width, int box_height, int input_width, int32_t *classes, float *probabilities, int capacity,
                   int *scaled_width, char *error, size_t error_length);

#ifdef __cplusplus
}
#endif

#endif
