// CV4L2: the only place where C V4L2 lives.
//
// Swift cannot import function-like macros (every VIDIOC_* request is built with
// _IOR/_IOW/_IOWR) nor call variadic C functions (ioctl, v4l2_ioctl, v4l2_open).
// This header exports each request code as an inline accessor returning
// `unsigned long` (VIDIOC_QUERYCAP is 0x80685600, which does not fit a signed
// 32-bit int), and wraps the variadic calls in regular functions. No logic
// lives here: CaptureKit's Internals decide what to call and what it means.
#pragma once

#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
// The canvas device's clock (a map view with no camera ticks on a timerfd, which Glibc's Swift
// module does not export).
#include <sys/timerfd.h>

// MARK: - Request codes

static inline unsigned long cv4l2_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long cv4l2_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long cv4l2_vidioc_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long cv4l2_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long cv4l2_vidioc_try_fmt(void) { return VIDIOC_TRY_FMT; }
static inline unsigned long cv4l2_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long cv4l2_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long cv4l2_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long cv4l2_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long cv4l2_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long cv4l2_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long cv4l2_vidioc_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long cv4l2_vidioc_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long cv4l2_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long cv4l2_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long cv4l2_vidioc_query_ext_ctrl(void) { return VIDIOC_QUERY_EXT_CTRL; }
static inline unsigned long cv4l2_vidioc_queryctrl(void) { return VIDIOC_QUERYCTRL; }
static inline unsigned long cv4l2_vidioc_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long cv4l2_vidioc_s_ctrl(void) { return VIDIOC_S_CTRL; }
static inline unsigned long cv4l2_vidioc_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long cv4l2_vidioc_g_ext_ctrls(void) { return VIDIOC_G_EXT_CTRLS; }
static inline unsigned long cv4l2_vidioc_s_ext_ctrls(void) { return VIDIOC_S_EXT_CTRLS; }
static inline unsigned long cv4l2_vidioc_g_input(void) { return VIDIOC_G_INPUT; }
static inline unsigned long cv4l2_vidioc_enuminput(void) { return VIDIOC_ENUMINPUT; }

// MARK: - Calls
//
// Each returns what the underlying call returns and leaves errno as it set it.
// `use_libv4l2` selects libv4l2's entry points (format conversion and emulated
// buffers) over the raw system calls; the same file descriptor works for both
// once `cv4l2_enable_libv4l2` has registered it with libv4l2.

/// open(2) with the given flags (no O_CREAT, so no mode argument).
int cv4l2_open(const char *path, int flags);

/// Registers an open descriptor with libv4l2 (v4l2_fd_open). Returns the
/// descriptor, or -1 with errno set.
int cv4l2_enable_libv4l2(int fd);

/// ioctl(2) or v4l2_ioctl(): both are variadic in C.
int cv4l2_ioctl(int fd, unsigned long request, void *argument, int use_libv4l2);

/// mmap(2) or v4l2_mmap() of a buffer the driver exported at `offset`.
/// Returns NULL (not MAP_FAILED) on failure, with errno set.
void *cv4l2_mmap(int fd, size_t length, int64_t offset, int use_libv4l2);

/// munmap(2) or v4l2_munmap().
int cv4l2_munmap(void *start, size_t length, int use_libv4l2);

/// close(2) or v4l2_close().
int cv4l2_close(int fd, int use_libv4l2);
