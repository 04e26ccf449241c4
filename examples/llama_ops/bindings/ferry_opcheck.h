/* ferry_opcheck.h - the C interface between `ferry opcheck` and an operator implementation
 * (docs/opcheck.md). Plain C99, no dependencies: copy it into the project that implements the
 * operators (examples/llama_ops/bindings/ has a copy; a test keeps the two identical).
 *
 * An implementation is a shared library exporting, for each operator, one function
 *     int SYMBOL(ferry_opcheck_call* call);
 * whose name the spec gives. For every case (operator x dtype x shape x seed) ferry fills the
 * inputs (host memory, contiguous, row-major), allocates the outputs (host memory, the sizes the
 * spec gives) and calls SYMBOL once. The function
 *   1. computes the outputs from the inputs (on any device: copying to and from it is its job),
 *   2. runs the operator `warmup` more times untimed, then `repeats` times, writing the time of
 *      each repeat in microseconds into times_us[i] (device time of the operator itself, e.g.
 *      CUDA events around the launch; leave the entries negative when it cannot time),
 *   3. returns FERRY_OPCHECK_OK; FERRY_OPCHECK_UNSUPPORTED when this case is not one it handles
 *      (a dtype or shape it does not implement: the table says "unsupported", it is not a
 *      failure); FERRY_OPCHECK_ERROR with a message in `error` when something went wrong.
 * Inputs must not be modified. The function may keep state between calls (handles, buffers). */
#ifndef FERRY_OPCHECK_H
#define FERRY_OPCHECK_H

#include <stdint.h>
#include <string.h>

#define FERRY_OPCHECK_ABI_VERSION 1
#define FERRY_OPCHECK_MAX_DIMS 8

enum { FERRY_OPCHECK_OK = 0, FERRY_OPCHECK_ERROR = 1, FERRY_OPCHECK_UNSUPPORTED = 2 };

typedef enum {
  FERRY_F32 = 0,
  FERRY_F16 = 1,  /* IEEE binary16 */
  FERRY_BF16 = 2, /* bfloat16: the upper half of a float32 */
  FERRY_I32 = 3,
  FERRY_I64 = 4,
  FERRY_F64 = 5
} ferry_dtype;

typedef struct {
  const char* name; /* as in the spec */
  ferry_dtype dtype;
  int ndim;
  int64_t shape[FERRY_OPCHECK_MAX_DIMS];
  int64_t numel;
  void* data;
} ferry_tensor;

typedef struct {
  const char* name;
  double value;
} ferry_attr;

typedef struct {
  int abi_version;   /* FERRY_OPCHECK_ABI_VERSION */
  const char* op;    /* the operator's name in the spec */
  ferry_dtype dtype; /* the case's dtype */
  int n_inputs;
  const ferry_tensor* inputs;
  int n_outputs;
  ferry_tensor* outputs;
  int n_attrs; /* the operator's attrs, then the case's shape dimensions */
  const ferry_attr* attrs;
  int warmup;
  int repeats;
  double* times_us; /* [repeats] */
  char error[512];
} ferry_opcheck_call;

typedef int (*ferry_opcheck_fn)(ferry_opcheck_call* call);

/* Lookups by name: NULL when absent. */
static inline const ferry_tensor* ferry_opcheck_input(const ferry_opcheck_call* c, const char* name) {
  for (int i = 0; i < c->n_inputs; ++i)
    if (strcmp(c->inputs[i].name, name) == 0) return &c->inputs[i];
  return NULL;
}
static inline ferry_tensor* ferry_opcheck_output(ferry_opcheck_call* c, const char* name) {
  for (int i = 0; i < c->n_outputs; ++i)
    if (strcmp(c->outputs[i].name, name) == 0) return &c->outputs[i];
  return NULL;
}
static inline double ferry_opcheck_attr(const ferry_opcheck_call* c, const char* name, double fallback) {
  for (int i = 0; i < c->n_attrs; ++i)
    if (strcmp(c->attrs[i].name, name) == 0) return c->attrs[i].value;
  return fallback;
}

#endif /* FERRY_OPCHECK_H */
