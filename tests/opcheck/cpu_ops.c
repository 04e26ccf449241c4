/* CPU implementations for the opcheck tests (tests/unit/opcheck_test.cpp): a shared library with
 * ferry_opcheck.h entry points, as a user's operator library would have them. */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "ferry_opcheck.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* y = a * x + y0, in float; with `sloppy` the result is perturbed by 1e-3 relative. */
static int axpy(ferry_opcheck_call* c, double perturb) {
  const ferry_tensor* x = ferry_opcheck_input(c, "x");
  const ferry_tensor* y0 = ferry_opcheck_input(c, "y0");
  ferry_tensor* y = ferry_opcheck_output(c, "y");
  if (!x || !y0 || !y) {
    snprintf(c->error, sizeof c->error, "axpy needs inputs x, y0 and output y");
    return FERRY_OPCHECK_ERROR;
  }
  if (c->dtype != FERRY_F32) return FERRY_OPCHECK_UNSUPPORTED;
  const float a = (float)ferry_opcheck_attr(c, "a", 1.0);
  const float* xs = (const float*)x->data;
  const float* ys = (const float*)y0->data;
  float* out = (float*)y->data;
  for (int r = -1; r < c->warmup + c->repeats; ++r) {
    const double t0 = now_us();
    for (int64_t i = 0; i < x->numel; ++i) out[i] = (float)((a * xs[i] + ys[i]) * (1.0 + perturb));
    if (r >= c->warmup) c->times_us[r - c->warmup] = now_us() - t0;
  }
  return FERRY_OPCHECK_OK;
}

int cpu_axpy(ferry_opcheck_call* c) { return axpy(c, 0.0); }
int cpu_axpy_sloppy(ferry_opcheck_call* c) { return axpy(c, 1e-3); }

int cpu_error(ferry_opcheck_call* c) {
  snprintf(c->error, sizeof c->error, "device out of memory (simulated)");
  return FERRY_OPCHECK_ERROR;
}

/* 16-bit in, 16-bit out: copies the bits of x to y (exact for every dtype). */
int cpu_copy16(ferry_opcheck_call* c) {
  const ferry_tensor* x = ferry_opcheck_input(c, "x");
  ferry_tensor* y = ferry_opcheck_output(c, "y");
  if (c->dtype != FERRY_F16 && c->dtype != FERRY_BF16) return FERRY_OPCHECK_UNSUPPORTED;
  const unsigned short* s = (const unsigned short*)x->data;
  unsigned short* d = (unsigned short*)y->data;
  for (int64_t i = 0; i < x->numel; ++i) d[i] = s[i];
  for (int r = 0; r < c->repeats; ++r) c->times_us[r] = -1;
  return FERRY_OPCHECK_OK;
}

/* argmax per row (int32 output); `cpu_argmax_last` takes the last of equal maxima. */
static int argmax(ferry_opcheck_call* c, int last) {
  const ferry_tensor* x = ferry_opcheck_input(c, "x");
  ferry_tensor* idx = ferry_opcheck_output(c, "idx");
  const int64_t rows = x->shape[0], cols = x->shape[1];
  const float* v = (const float*)x->data;
  int* out = (int*)idx->data;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t best = 0;
    for (int64_t j = 1; j < cols; ++j)
      if (v[r * cols + j] > v[r * cols + best] || (last && v[r * cols + j] == v[r * cols + best])) best = j;
    out[r] = (int)best;
  }
  return FERRY_OPCHECK_OK;
}
int cpu_argmax(ferry_opcheck_call* c) { return argmax(c, 0); }
int cpu_argmax_last(ferry_opcheck_call* c) { return argmax(c, 1); }
