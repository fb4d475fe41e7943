/* The one error type of warpmatch.
 *
 * Every fallible function returns an int status (WM_OK or one of the codes
 * below) and, on failure, fills a caller-owned wm_error with a message that
 * names the file, the line and what was expected.  The codes double as the
 * program's exit codes, so a command returns err.code straight to main(). */
#ifndef WM_ERROR_H
#define WM_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
  WM_OK = 0,
  WM_EINPUT = 1,  /* bad or unreadable input, I/O failure, host out of memory */
  WM_EUSAGE = 2,  /* bad command line */
  WM_EDEVICE = 3, /* GPU missing, CUDA error, device out of memory */
  WM_EINTERRUPTED = 4, /* the caller asked the call to stop (warpmatch_interrupt) */
};

typedef struct wm_error {
  int code;
  char msg[1024];
} wm_error;

/* Records code and a printf-style message in err (which may be NULL) and
 * returns code, so that callers can write `return wm_fail(err, ...)`. */
int wm_fail(wm_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears err to WM_OK with an empty message. */
void wm_error_clear(wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
