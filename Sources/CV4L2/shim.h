// libv4l2 and the V4L2 UAPI, made usable from Swift.
//
// Swift imports neither C variadic functions (v4l2_open, v4l2_ioctl) nor
// function-like macros (VIDIOC_* are built with _IOWR). This header wraps the
// former in fixed-arity functions and re-exports the latter as constants.
#ifndef PRICECAM_CV4L2_SHIM_H
#define PRICECAM_CV4L2_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/videodev2.h>
#include <libv4l2.h>

static inline int pricecam_v4l2_open(const char *path, int flags) {
    return v4l2_open(path, flags);
}

/// ioctl through libv4l2, retried on EINTR.
static inline int pricecam_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

/// Plain ioctl (no libv4l2 conversion layer), retried on EINTR.
static inline int pricecam_raw_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

static const unsigned long pricecam_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long pricecam_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long pricecam_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long pricecam_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long pricecam_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
static const unsigned long pricecam_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long pricecam_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long pricecam_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long pricecam_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long pricecam_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long pricecam_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long pricecam_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long pricecam_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long pricecam_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long pricecam_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;

static const uint32_t pricecam_V4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
static const uint32_t pricecam_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t pricecam_V4L2_PIX_FMT_YVYU = V4L2_PIX_FMT_YVYU;
static const uint32_t pricecam_V4L2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
static const uint32_t pricecam_V4L2_PIX_FMT_VYUY = V4L2_PIX_FMT_VYUY;
static const uint32_t pricecam_V4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const uint32_t pricecam_V4L2_PIX_FMT_NV21 = V4L2_PIX_FMT_NV21;
static const uint32_t pricecam_V4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const uint32_t pricecam_V4L2_PIX_FMT_YVU420 = V4L2_PIX_FMT_YVU420;
static const uint32_t pricecam_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t pricecam_V4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const uint32_t pricecam_V4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;

static const uint32_t pricecam_V4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const uint32_t pricecam_V4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const uint32_t pricecam_V4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const uint32_t pricecam_V4L2_CAP_VIDEO_OUTPUT = V4L2_CAP_VIDEO_OUTPUT;
static const uint32_t pricecam_V4L2_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK;
static const uint32_t pricecam_V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
static const uint32_t pricecam_V4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
static const uint32_t pricecam_V4L2_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;

#endif
