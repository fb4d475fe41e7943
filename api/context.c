/* The context: the last error, the thread count, the device choice, the
 * graph kept on the GPU for BFS. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "matcher.h"
#include "traversal.h"

_Static_assert(WARPMATCH_MAX_GPUS == WM_MAX_GPUS, "the public bound is the GPU drivers' table size");

const char *warpmatch_version(void) { return WARPMATCH_VERSION_STRING; }

int warpmatch_context_create(warpmatch_context **out) {
  if (!out) return WARPMATCH_EUSAGE;
  *out = calloc(1, sizeof **out);
  if (!*out) return WARPMATCH_EINPUT; /* no context to hold a message */
  (*out)->gpu = -1;
  return WARPMATCH_OK;
}

void warpmatch_context_destroy(warpmatch_context *ctx) {
  if (!ctx) return;
  wm_bfs_gpu_destroy(ctx->bfs);
  wm_api_gpu_graph_drop(ctx);
  wm_gpu_stop_word_free(&ctx->monitor);
  free(ctx);
}

const char *warpmatch_last_error(const warpmatch_context *ctx) {
  return ctx ? ctx->err.msg : "warpmatch_last_error: ctx is NULL";
}

int warpmatch_gpu_available(warpmatch_context *ctx) {
  if (!ctx) return wm_gpu_available();
  if (ctx->gpu < 0) ctx->gpu = wm_gpu_available(); /* asks the driver once per context */
  return ctx->gpu;
}

int warpmatch_set_threads(warpmatch_context *ctx, int threads) {
  if (!ctx) return WARPMATCH_EUSAGE;
  if (threads < 0 || threads > WARPMATCH_MAX_THREADS)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "warpmatch_set_threads: %d threads; give 1 to %d, or 0 (all cores)",
                       threads, WARPMATCH_MAX_THREADS);
  ctx->threads = threads;
  return WARPMATCH_OK;
}

int warpmatch_threads(const warpmatch_context *ctx) {
  if (ctx && ctx->threads > 0) return ctx->threads;
  const int all = omp_get_max_threads();
  return all < WARPMATCH_MAX_THREADS ? all : WARPMATCH_MAX_THREADS;
}

int warpmatch_set_gpus(warpmatch_context *ctx, int gpus) {
  if (!ctx) return WARPMATCH_EUSAGE;
  if (gpus < 1 || gpus > WARPMATCH_MAX_GPUS)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "warpmatch_set_gpus: %d GPUs; give 1 to %d", gpus, WARPMATCH_MAX_GPUS);
  ctx->gpus = gpus;
  return WARPMATCH_OK;
}

/* Atomic stores only: async-signal-safe, from any thread.  The flag
 * first, then the GPUs' word (wm_gpu_stop_word reads the flag again after
 * setting the word, so a call starting meanwhile cannot lose this one). */
void warpmatch_interrupt(warpmatch_context *ctx, int on) {
  if (!ctx) return;
  __atomic_store_n(&ctx->monitor.stop, on != 0, __ATOMIC_SEQ_CST);
  int *word = __atomic_load_n(&ctx->monitor.gpu_word, __ATOMIC_SEQ_CST);
  if (word) __atomic_store_n(word, on != 0, __ATOMIC_SEQ_CST);
}

int warpmatch_set_progress_callback(warpmatch_context *ctx, warpmatch_progress_fn fn, void *user) {
  if (!ctx) return WARPMATCH_EUSAGE;
  ctx->monitor.fn = fn;
  ctx->monitor.user = user;
  return WARPMATCH_OK;
}

/* ---- versioned structs ---------------------------------------------- */

/* A size no struct of the API has: never set (0, or stack garbage). */
static int bad_size(size_t size) { return size < sizeof size || size > WARPMATCH_MAX_STRUCT_SIZE; }

int wm_api_struct_in(warpmatch_context *ctx, const char *who, void *dst, size_t dst_size, const void *src) {
  size_t size;
  memcpy(&size, src, sizeof size);
  if (bad_size(size))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: the options' size is %zu; set it to their sizeof (their _init does; %zu to %d)", who,
                       size, sizeof size, WARPMATCH_MAX_STRUCT_SIZE);
  memcpy(dst, src, size < dst_size ? size : dst_size); /* an older, shorter struct keeps the later defaults */
  memcpy(dst, &dst_size, sizeof dst_size);
  return WARPMATCH_OK;
}

int wm_api_struct_out(warpmatch_context *ctx, const char *who, void *dst, const void *src, size_t src_size) {
  size_t size;
  memcpy(&size, dst, sizeof size);
  if (bad_size(size))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: the result's size is %zu; set it to its sizeof (%zu to %d)", who,
                       size, sizeof size, WARPMATCH_MAX_STRUCT_SIZE);
  memcpy((char *)dst + sizeof size, (const char *)src + sizeof size, (size < src_size ? size : src_size) - sizeof size);
  return WARPMATCH_OK;
}

/* ---- errors ---------------------------------------------------------- */

int wm_api_fail(warpmatch_context *ctx, int code, const char *fmt, ...) {
  if (ctx) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err.msg, sizeof ctx->err.msg, fmt, ap);
    va_end(ap);
    ctx->err.code = code;
  }
  return code;
}

int wm_api_status(warpmatch_context *ctx, int rc, const wm_error *err) {
  if (rc == WM_OK) return WARPMATCH_OK;
  /* The modules' codes are the API's (wm_error.h, warpmatch.h). */
  if (ctx) ctx->err = *err;
  /* a module that answers its reader's failure as bad input still reports
   * an interrupt as one */
  return err->code == WM_EINTERRUPTED ? WM_EINTERRUPTED : rc;
}

int wm_api_null(warpmatch_context *ctx, const char *who, const char *what) {
  return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s is NULL", who, what);
}

/* ---- shared choices ------------------------------------------------- */

int wm_api_use_gpu(warpmatch_context *ctx, const char *who, int device, int *use_gpu) {
  switch (device) {
  case WARPMATCH_DEVICE_CPU:
    *use_gpu = 0;
    return WARPMATCH_OK;
  case WARPMATCH_DEVICE_AUTO:
    *use_gpu = warpmatch_gpu_available(ctx);
    return WARPMATCH_OK;
  case WARPMATCH_DEVICE_GPU:
    if (!warpmatch_gpu_available(ctx))
      return wm_api_fail(ctx, WARPMATCH_EDEVICE,
                         "%s: device GPU: no usable CUDA device (or this library was built without CUDA); "
                         "use WARPMATCH_DEVICE_CPU or _AUTO",
                         who);
    *use_gpu = 1;
    return WARPMATCH_OK;
  default:
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: device %d: expected WARPMATCH_DEVICE_AUTO, _CPU or _GPU", who, device);
  }
}

/* The caller's OpenMP default (OMP_NUM_THREADS) is held to the limit too:
 * past it libgomp may end the process when it cannot start the threads. */
void wm_api_threads_enter(const warpmatch_context *ctx, wm_api_threads *t) {
  t->saved = 0;
  /* the monitor is the context's mutable part, whatever the call's const */
  t->monitor = wm_monitor_enter(ctx ? (wm_monitor *)&ctx->monitor : NULL);
  const int want = warpmatch_threads(ctx);
  if (want != omp_get_max_threads()) {
    t->saved = omp_get_max_threads();
    omp_set_num_threads(want);
  }
}

void wm_api_threads_leave(const wm_api_threads *t) {
  if (t->saved > 0) omp_set_num_threads(t->saved);
  wm_monitor_leave(t->monitor);
}
