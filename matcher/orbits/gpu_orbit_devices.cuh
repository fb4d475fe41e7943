/* What the 5-vertex orbits' GPU pieces (gpu_orbit_walks5.cu,
 * gpu_orbit_cliques5.cu, gpu_orbit_cycles5.cu) share to run over devices
 * 0..n-1 of one host, as the CPU's processes share them (orbit_share5.h):
 * every device holds the graph and takes part of the items, and each
 * per-vertex or per-arc value a device writes is either its own (the
 * others hold zeros there) or a sum of credits that the devices split, so
 * that the host adds the devices' arrays exactly.  The items come from
 * counters in device 0's memory that every device takes from with
 * system-scope atomics where the devices reach device 0 with peer atomics
 * (wm_gpu_share_counter), so that a skewed graph keeps every device busy;
 * else each device takes a fixed share of every counter, finely
 * interleaved (its k-th take is item k n + d), so that the costliest items,
 * which the counters hand out first, are dealt in turn.  One host thread
 * queues every device's work and waits for all of them, as the motif
 * totals do (gpu_motif_sums.cu).  Included by each of the three (one
 * translation unit each). */
#pragma once

#include <stdint.h>
#include <string.h>

#include "device.h"
#include "gpu_check.h"

namespace {

/* A device's share of a counter: its k-th take is item k parts + part
 * (part 0 of 1: every item, one device or a counter all of them share). */
struct o5_deal {
  unsigned part, parts;
};

__host__ __device__ __forceinline__ unsigned long long o5_dealt(o5_deal d, unsigned long long k) {
  return k * d.parts + d.part;
}

/* The next take of a counter, system-wide where other devices take from
 * it too. */
__device__ __forceinline__ unsigned long long o5_take(unsigned long long *next, int system) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
  return system ? atomicAdd_system(next, 1ull) : atomicAdd(next, 1ull);
#else
  return atomicAdd(next, 1ull); /* never shared below sm_60 (no peer atomics) */
#endif
}

/* The devices of a call: 0..n-1, or (n = 1) the current one alone. */
struct o5_devices {
  int n;
  int shared;   /* n > 1: 1 where the counters are device 0's, taken by every device */
  char why[96]; /* n > 1 and not shared: why not (the static deal then) */
};

/* The devices for `gpus` (0 or 1: the current one), each checked present;
 * peer access to device 0 enabled where they share its counters. */
inline int o5_devices_open(int gpus, o5_devices &D, wm_error *err) {
  memset(&D, 0, sizeof D);
  D.n = 1;
  if (gpus <= 1) return WM_OK;
  int ndev = 1, have = 0;
  int rc = wm_gpu_devices(gpus, &ndev, err);
  if (rc) return rc;
  WM_CU(cudaGetDeviceCount(&have));
  if (ndev > have) return wm_fail(err, WM_EDEVICE, "orbits: %d GPUs asked for, this host has %d", ndev, have);
  D.n = ndev;
  return wm_gpu_share_counter(ndev, &D.shared, D.why, sizeof D.why, err);
}

/* Device d's deal of a counter (one of its own where not shared). */
inline o5_deal o5_deal_of(const o5_devices &D, int d) {
  return D.shared ? o5_deal{0, 1} : o5_deal{(unsigned)d, (unsigned)D.n};
}

/* How the devices split the work, for the traces. */
inline const char *o5_how(const o5_devices &D) {
  return D.shared ? "shared counters on device 0" : "a static deal";
}

/* Waits for the work queued on the default stream of devices 0..n-1: the
 * first device that fails ends the wait with WM_EDEVICE naming it (the
 * others are not waited for: o5_quiesce before freeing); then
 * WM_EINTERRUPTED where the call was stopped (its sums are partial). */
inline int o5_wait_all(int n, wm_error *err) {
  int ids[WM_MAX_GPUS] = {0};
  cudaStream_t streams[WM_MAX_GPUS] = {}; /* each device's default stream */
  for (int d = 0; d < n; d++) ids[d] = d;
  int rc = wm_gpu_watch_all(n, ids, streams, NULL, NULL, NULL, err);
  for (int d = 0; !rc && d < n; d++) {
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaDeviceSynchronize()); /* a kernel's fault, reported here */
  }
  if (!rc && wm_monitor_stopped(wm_monitor_current())) rc = wm_interrupted(err, "orbits");
  return rc;
}

/* Every device's queued work ended (whatever failed), so that no device
 * still takes from device 0's counters when they are freed. */
inline void o5_quiesce(int n) {
  for (int d = 0; d < n; d++)
    if (cudaSetDevice(d) == cudaSuccess) cudaDeviceSynchronize();
  cudaGetLastError();
}

/* The end of a call over D's devices, whatever failed: every device
 * quiet, each device's buffers b[d] released on it, device 0's shared
 * counters freed, the caller's device `was` current again. */
template <class Bufs, class Release>
inline void o5_release_all(const o5_devices &D, Bufs *b, void *shared, int was, Release release) {
  o5_quiesce(D.n);
  for (int d = 0; d < D.n; d++)
    if (cudaSetDevice(d) == cudaSuccess) release(b[d]);
  if (shared && cudaSetDevice(0) == cudaSuccess) cudaFree(shared);
  cudaGetLastError();
  cudaSetDevice(was);
}

/* The slowest device's time between its events start[d] and end[d]. */
inline int o5_slowest(int n, const cudaEvent_t *start, const cudaEvent_t *end, float *ms, wm_error *err) {
  *ms = 0;
  for (int d = 0; d < n; d++) {
    float t = 0;
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaEventElapsedTime(&t, start[d], end[d]));
    *ms = t > *ms ? t : *ms;
  }
  return WM_OK;
}

/* a[i] += b[i] for words that one device alone wrote (the others hold
 * zeros), or counts far below 2^64: exact. */
template <class Word>
inline void o5_add_words(Word *a, const Word *b, uint64_t len) {
  static_assert(sizeof(Word) == 8, "64-bit words");
  for (uint64_t i = 0; i < len; i++) a[i] += b[i];
}

}  // namespace
