/* NCCL opened at its first use instead of at every process's start.
 *
 * Only BFS over several GPUs (bfs_part_gpu.cu) speaks NCCL, but a program
 * linked to libnccl pays for mapping and starting it on every run (1.6 ms
 * a process on the development machine: more than most of a small
 * graph's count), and cannot start at all where it is missing.  The calls
 * bfs_part_gpu.cu makes are defined here under their own names; the first
 * one opens the library the build found (WM_NCCL_PATH), else libnccl.so.2
 * on the loader's path, and resolves them all.  Without it every call
 * answers ncclSystemError, and ncclGetErrorString says what dlopen said.
 * (The BFS emulator compiles its own NCCL instead: this file is the CUDA
 * build's only.) */
#if WM_HAVE_NCCL
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nccl.h>
#include <pthread.h>
#include <stdio.h>

#include "traversal.h"

static struct {
  const char *(*GetErrorString)(ncclResult_t);
  ncclResult_t (*GetUniqueId)(ncclUniqueId *);
  ncclResult_t (*CommInitAll)(ncclComm_t *, int, const int *);
  ncclResult_t (*CommInitRank)(ncclComm_t *, int, ncclUniqueId, int);
  ncclResult_t (*CommAbort)(ncclComm_t);
  ncclResult_t (*CommDestroy)(ncclComm_t);
  ncclResult_t (*CommGetAsyncError)(ncclComm_t, ncclResult_t *);
  ncclResult_t (*GroupStart)(void);
  ncclResult_t (*GroupEnd)(void);
  ncclResult_t (*AllGather)(const void *, void *, size_t, ncclDataType_t, ncclComm_t, cudaStream_t);
  ncclResult_t (*Send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*Recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char why[512];

static int resolve(void *lib) {
#define R(name)                                                           \
  if (!(*(void **)&fn.name = dlsym(lib, "nccl" #name))) {                 \
    snprintf(why, sizeof why, "NCCL lacks nccl%s: %s", #name, dlerror()); \
    return 0;                                                             \
  }
  R(GetErrorString) R(GetUniqueId) R(CommInitAll) R(CommInitRank) R(CommAbort) R(CommDestroy)
  R(CommGetAsyncError) R(GroupStart) R(GroupEnd) R(AllGather) R(Send) R(Recv)
#undef R
  return 1;
}

static void open_nccl(void) {
  void *lib = NULL;
#ifdef WM_NCCL_PATH
  lib = dlopen(WM_NCCL_PATH, RTLD_NOW | RTLD_LOCAL);
#else
#include "traversal.h"

int wm_nccl_open(const char **error) {
  if (error) *error = "built without NCCL";
  return -1;
}
#endif
  if (!lib) lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(why, sizeof why, "NCCL could not be opened (%s)", dlerror());
    return;
  }
  loaded = resolve(lib);
}

int wm_nccl_open(const char **error) {
  pthread_once(&once, open_nccl);
  if (error) *error = loaded ? NULL : why;
  return loaded;
}

#define CALL(name, ...) (wm_nccl_open(NULL) > 0 ? fn.name(__VA_ARGS__) : ncclSystemError)

const char *ncclGetErrorString(ncclResult_t r) { return wm_nccl_open(NULL) > 0 ? fn.GetErrorString(r) : why; }
ncclResult_t ncclGetUniqueId(ncclUniqueId *id) { return CALL(GetUniqueId, id); }
ncclResult_t ncclCommInitAll(ncclComm_t *c, int n, const int *devs) { return CALL(CommInitAll, c, n, devs); }
ncclResult_t ncclCommInitRank(ncclComm_t *c, int n, ncclUniqueId id, int rank) {
  return CALL(CommInitRank, c, n, id, rank);
}
ncclResult_t ncclCommAbort(ncclComm_t c) { return CALL(CommAbort, c); }
ncclResult_t ncclCommDestroy(ncclComm_t c) { return CALL(CommDestroy, c); }
ncclResult_t ncclCommGetAsyncError(ncclComm_t c, ncclResult_t *r) { return CALL(CommGetAsyncError, c, r); }
ncclResult_t ncclGroupStart(void) { return CALL(GroupStart); }
ncclResult_t ncclGroupEnd(void) { return CALL(GroupEnd); }
ncclResult_t ncclAllGather(const void *s, void *r, size_t n, ncclDataType_t t, ncclComm_t c, cudaStream_t st) {
  return CALL(AllGather, s, r, n, t, c, st);
}
ncclResult_t ncclSend(const void *s, size_t n, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t st) {
  return CALL(Send, s, n, t, peer, c, st);
}
ncclResult_t ncclRecv(void *r, size_t n, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t st) {
  return CALL(Recv, r, n, t, peer, c, st);
}
#else
#include "traversal.h"

int wm_nccl_open(const char **error) {
  if (error) *error = "built without NCCL";
  return -1;
}
#endif
