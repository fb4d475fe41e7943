/* bfs-emu runtime: coroutine threads, block barriers, warp collectives and
 * the synchronous runtime API.  See include/cuda_runtime.h. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define FIBER_START(save, bottom, size) __sanitizer_start_switch_fiber(save, bottom, size)
#define FIBER_FINISH(save, bottom, size) __sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define FIBER_START(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#define FIBER_FINISH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

#if !defined(__x86_64__)
#error "bfs-emu switches stacks with x86-64 code"
#endif

/* Saves the callee-saved registers on the current stack, stores its pointer
 * in *save and continues on the stack new_sp (System V x86-64). */
extern "C" void emu_switch(void **save, void *new_sp);
asm(R"(
  .text
  .globl emu_switch
  .type emu_switch, @function
emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size emu_switch, .-emu_switch
  .section .note.GNU-stack,"",@progbits
  .text
)");

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace {

enum State { READY, WAIT_BAR, WAIT_WARP, WAIT_GRID, DONE };

struct Block;
struct Thread {
  void *sp;       /* saved stack pointer while switched out */
  char *stack;
  void *fake;     /* ASan's fake-stack handle */
  State state;
  emu_thread_ids ids;
  Block *block;
};

struct Warp {
  emu_warp_op op;
  unsigned arrived;
  uint64_t val[32], res[32];
  int arg[32];
};

struct Block {
  std::vector<Thread> threads;
  unsigned live = 0, bar_arrived = 0;
  std::vector<Warp> warps;
  void *smem = nullptr;
  size_t smem_bytes = 0;
  unsigned id = 0;
};

void *sched_sp = nullptr, *sched_fake = nullptr;
const void *main_bottom = nullptr;
size_t main_size = 0;
Thread *cur = nullptr;
Block *blk = nullptr; /* cur's block */
/* A cooperative launch runs its blocks interleaved: the grid-wide barrier's
 * count of live threads and of those waiting at it. */
bool cooperative = false;
unsigned grid_live = 0, grid_arrived = 0;
std::vector<Thread *> *running = nullptr; /* the threads of the blocks running */
std::vector<Block> *running_blocks = nullptr; /* ... and their blocks */
const std::function<void()> *body = nullptr;
std::vector<char *> stacks;
const size_t kStack = 256 * 1024;
uint64_t rng = 0;
unsigned long long launches = 0, switches = 0;

[[noreturn]] void die(const char *what) {
  fprintf(stderr, "bfs-emu: %s (block %u, thread %u)\n", what, cur ? cur->ids.bid.x : 0u,
          cur ? cur->ids.tid.x : 0u);
  abort();
}

uint64_t next_rand() {
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void yield_to_scheduler() {
  switches++;
  Thread *t = cur;
  FIBER_START(&t->fake, main_bottom, main_size);
  emu_switch(&t->sp, sched_sp);
  FIBER_FINISH(t->fake, nullptr, nullptr);
}

[[noreturn]] void thread_entry() {
  FIBER_FINISH(nullptr, &main_bottom, &main_size);
  (*body)();
  cur->state = DONE;
  blk->live--;
  grid_live--;
  if (blk->bar_arrived && blk->bar_arrived == blk->live)
    die("a thread exited while the others wait at __syncthreads()");
  if (grid_arrived && grid_arrived == grid_live) die("a thread exited while the others wait at the grid-wide barrier");
  FIBER_START(nullptr, main_bottom, main_size);
  emu_switch(&cur->sp, sched_sp);
  die("a finished thread was resumed");
}

/* A fresh stack that "returns" into thread_entry on the first switch. */
void *initial_sp(char *stack) {
  uintptr_t top = ((uintptr_t)(stack + kStack)) & ~(uintptr_t)15;
  void **sp = (void **)top;
  *--sp = nullptr;                     /* thread_entry's return address: never used */
  *--sp = (void *)&thread_entry;       /* popped by emu_switch's ret */
  for (int i = 0; i < 6; i++) *--sp = nullptr; /* rbp rbx r12-r15 */
  return sp;
}

int env_int(const char *name, int def) {
  const char *s = getenv(name);
  return s && *s ? atoi(s) : def;
}

/* Runs blocks ids[0..count) of the launch together, their threads
 * interleaved (one block at a time for an ordinary launch, all of them for
 * a cooperative one). */
void run_blocks(const emu_cfg_t &cfg, const unsigned *ids, unsigned count) {
  unsigned nt = cfg.block.x;
  if (nt == 0 || nt > 1024 || cfg.block.y != 1 || cfg.block.z != 1) die("bad block shape");
  std::vector<Block> blocks(count);
  while (stacks.size() < (size_t)nt * count) stacks.push_back((char *)malloc(kStack));
  std::vector<Thread *> order;
  for (unsigned k = 0; k < count; k++) {
    Block &B = blocks[k];
    B.threads.resize(nt);
    B.warps.resize((nt + 31) / 32);
    for (auto &w : B.warps) w.arrived = 0;
    B.live = nt;
    B.id = ids[k];
    B.smem_bytes = cfg.smem;
    if (cfg.smem) {
      B.smem = malloc(cfg.smem);
      memset(B.smem, 0xA5, cfg.smem); /* shared memory starts as garbage */
    }
    for (unsigned i = 0; i < nt; i++) {
      Thread &t = B.threads[i];
      t.state = READY;
      t.ids.tid = uint3{i, 0, 0};
      t.ids.bid = uint3{ids[k], 0, 0};
      t.ids.bdim = cfg.block;
      t.ids.gdim = cfg.grid;
      t.stack = stacks[(size_t)k * nt + i];
      t.sp = initial_sp(t.stack);
      t.fake = nullptr;
      t.block = &B;
      order.push_back(&t);
    }
  }
  grid_live = nt * count, grid_arrived = 0;
  running = &order;
  running_blocks = &blocks;
  /* start threads in a random order; resume round-robin from there */
  for (size_t i = order.size(); i > 1; i--) std::swap(order[i - 1], order[next_rand() % i]);
  for (;;) {
    bool progress = false, all_done = true;
    for (Thread *tp : order) {
      Thread &t = *tp;
      if (t.state != DONE) all_done = false;
      if (t.state != READY) continue;
      cur = &t;
      blk = t.block;
      progress = true;
      switches++;
      FIBER_START(&sched_fake, t.stack, kStack);
      emu_switch(&sched_sp, t.sp);
      FIBER_FINISH(sched_fake, nullptr, nullptr);
      cur = nullptr;
    }
    if (all_done) break;
    if (!progress) {
      static const char *const at[] = {"", "__syncthreads()", "a warp collective", "the grid-wide barrier", ""};
      for (Thread *tp : order)
        if (tp->state != DONE)
          fprintf(stderr, "bfs-emu: block %u thread %u waits at %s\n", tp->ids.bid.x, tp->ids.tid.x, at[tp->state]);
      die("deadlock: threads wait for partners that exited or took another path");
    }
  }
  for (auto &B : blocks) free(B.smem);
  blk = nullptr;
  running = nullptr;
  running_blocks = nullptr;
}

}  // namespace

const emu_thread_ids &emu_ids(void) {
  if (!cur) die("threadIdx used outside a kernel");
  return cur->ids;
}

void *emu_dyn_smem(void) {
  if (!blk || !blk->smem) die("dynamic shared memory used but none was given at launch");
  return blk->smem;
}

void emu_grid_sync(void) {
  if (!cooperative) die("grid-wide barrier in a kernel not launched cooperatively");
  cur->state = WAIT_GRID;
  if (++grid_arrived == grid_live) {
    grid_arrived = 0;
    for (Thread *t : *running)
      if (t->state == WAIT_GRID) t->state = READY;
    cur->state = READY;
    return;
  }
  yield_to_scheduler();
}

void *emu_map_shared_rank(void *p, unsigned rank) {
  if (!cooperative || !running_blocks) die("distributed shared memory outside a cluster launch");
  const size_t at = (size_t)((char *)p - (char *)blk->smem);
  if (!blk->smem || (char *)p < (char *)blk->smem || at >= blk->smem_bytes)
    die("map_shared_rank of an address outside the block's dynamic shared memory");
  for (Block &B : *running_blocks)
    if (B.id == rank) return (char *)B.smem + at;
  die("map_shared_rank to a block outside the cluster");
}

void emu_syncthreads(void) {
  Block &B = *blk;
  cur->state = WAIT_BAR;
  if (++B.bar_arrived == B.live) {
    B.bar_arrived = 0;
    for (auto &t : B.threads)
      if (t.state == WAIT_BAR) t.state = READY;
    return;
  }
  yield_to_scheduler();
}

uint64_t emu_warp(emu_warp_op op, unsigned mask, uint64_t value, int arg) {
  Block &B = *blk;
  unsigned lane = cur->ids.tid.x % 32, w = cur->ids.tid.x / 32;
  unsigned lanes = std::min(32u, (unsigned)B.threads.size() - 32 * w);
  unsigned full = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  if (mask != full) die("warp collective with a partial mask (the BFS kernels use full warps)");
  Warp &W = B.warps[w];
  if (W.arrived == 0)
    W.op = op;
  else if (W.op != op)
    die("divergent warp: lanes are at different warp collectives");
  W.val[lane] = value;
  W.arg[lane] = arg;
  cur->state = WAIT_WARP;
  if (++W.arrived < lanes) {
    yield_to_scheduler();
    return W.res[lane];
  }
  W.arrived = 0;
  uint64_t acc = 0;
  switch (op) {
  case EMU_BALLOT:
    for (unsigned i = 0; i < lanes; i++) acc |= (uint64_t)(W.val[i] != 0) << i;
    for (unsigned i = 0; i < lanes; i++) W.res[i] = acc;
    break;
  case EMU_REDUCE_ADD:
    for (unsigned i = 0; i < lanes; i++) acc += (uint32_t)W.val[i];
    for (unsigned i = 0; i < lanes; i++) W.res[i] = (uint32_t)acc;
    break;
  case EMU_SHFL:
    for (unsigned i = 0; i < lanes; i++) {
      if (W.arg[i] < 0 || W.arg[i] >= (int)lanes) die("shfl from a lane out of range");
      W.res[i] = W.val[W.arg[i]];
    }
    break;
  case EMU_SHFL_DOWN:
    for (unsigned i = 0; i < lanes; i++) W.res[i] = i + W.arg[i] < lanes ? W.val[i + W.arg[i]] : W.val[i];
    break;
  }
  for (unsigned i = 32 * w; i < 32 * w + lanes; i++)
    if (B.threads[i].state == WAIT_WARP) B.threads[i].state = READY;
  cur->state = READY;
  return W.res[lane];
}

void print_stats() { fprintf(stderr, "bfs-emu: %llu launches, %llu switches\n", launches, switches); }

/* The graph being captured (cudaStreamBeginCapture), or NULL. */
struct emu_graph {
  std::vector<std::function<void()>> ops;
};
static emu_graph *capturing;

/* The current device of each host thread, and EMU_DEFER_DEVICE's held
 * work (cudaSetDevice in cuda_runtime.h). */
static thread_local int cur_dev = 0;
static std::vector<std::function<void()>> deferred;
static bool flushing = false;

static bool deferring() {
  static const int defer_dev = env_int("EMU_DEFER_DEVICE", -1);
  return defer_dev >= 0 && cur_dev == defer_dev && !flushing;
}

/* The host waits on the current device: its held work runs first. */
static void emu_sync() {
  if (!deferring() || deferred.empty()) return;
  std::vector<std::function<void()>> ops;
  ops.swap(deferred);
  flushing = true;
  for (auto &op : ops) op();
  flushing = false;
}

/* Runs op now, or keeps it for the graph being captured or for the
 * deferred device. */
static cudaError_t emu_queue(std::function<void()> op) {
  if (capturing)
    capturing->ops.push_back(std::move(op));
  else if (deferring())
    deferred.push_back(std::move(op));
  else
    op();
  return cudaSuccess;
}

/* Host threads (one per GPU in the partitioned BFS) take turns: the block
 * scheduler's state is one. */
static std::recursive_mutex launch_lock;

static void launch(const emu_cfg_t &cfg, std::function<void()> fn, bool coop) {
  if (capturing || deferring()) {
    emu_cfg_t c = cfg;
    emu_queue([c, fn, coop]() { launch(c, fn, coop); });
    return;
  }
  std::lock_guard<std::recursive_mutex> hold(launch_lock);
  static bool seeded = false;
  if (!seeded) {
    rng = (uint64_t)env_int("EMU_SEED", 1), seeded = true;
    if (env_int("EMU_STATS", 0)) atexit(print_stats);
  }
  if (cfg.grid.x == 0 || cfg.grid.y != 1 || cfg.grid.z != 1) die("bad grid shape");
  if (blk) die("kernel launched from a kernel");
  launches++;
  body = &fn;
  std::vector<unsigned> order(cfg.grid.x);
  for (unsigned i = 0; i < cfg.grid.x; i++) order[i] = i;
  for (unsigned i = cfg.grid.x; i > 1; i--) std::swap(order[i - 1], order[next_rand() % i]);
  cooperative = coop;
  if (coop)
    run_blocks(cfg, order.data(), cfg.grid.x);
  else
    for (unsigned b : order) run_blocks(cfg, &b, 1);
  cooperative = false;
  body = nullptr;
}

void emu_launch(const emu_cfg_t &cfg, std::function<void()> fn) { launch(cfg, fn, false); }

void emu_launch_cooperative(const emu_cfg_t &cfg, std::function<void()> fn) {
  if (cfg.grid.x > (unsigned)env_int("EMU_SMS", 2)) die("a cooperative launch with more blocks than SMs");
  launch(cfg, fn, true);
}

int emu_cluster_fits(const cudaLaunchConfig_t *cfg) {
  unsigned c = 0;
  for (unsigned i = 0; i < cfg->numAttrs; i++)
    if (cfg->attrs[i].id == cudaLaunchAttributeClusterDimension) c = cfg->attrs[i].val.clusterDim.x;
  return c >= 1 && c == cfg->grid_dim.x && c <= (unsigned)env_int("EMU_CLUSTER", 8) &&
         cfg->dynamicSmemBytes <= (size_t)env_int("EMU_SMEM_OPTIN", 232448);
}

void emu_launch_cluster(const emu_cfg_t &cfg, std::function<void()> fn) { launch(cfg, fn, true); }

/* ---- runtime API -------------------------------------------------------- */

static double now_ms() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

cudaError_t cudaMalloc(void **p, size_t bytes) {
  *p = malloc(bytes ? bytes : 1);
  if (!*p) return cudaErrorMemoryAllocation;
  memset(*p, 0xA5, bytes); /* device memory starts as garbage */
  return cudaSuccess;
}
cudaError_t cudaFree(void *p) { emu_sync(); free(p); return cudaSuccess; }
cudaError_t cudaMallocHost(void **p, size_t bytes) { return cudaMalloc(p, bytes); }

struct emu_pool {
  std::multimap<size_t, void *> free_blocks; /* by size */
  bool destroyed = false;
};
static std::mutex pool_lock;
static std::map<void *, std::pair<emu_pool *, size_t>> pool_blocks; /* every block a pool handed out */

cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const cudaMemPoolProps *) {
  *pool = new emu_pool;
  return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  emu_sync();
  std::lock_guard<std::mutex> g(pool_lock);
  for (auto &b : pool->free_blocks) pool_blocks.erase(b.second), free(b.second);
  pool->free_blocks.clear();
  pool->destroyed = true; /* blocks still out are freed when they come back */
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void *) { return cudaSuccess; }
cudaError_t cudaMallocFromPoolAsync(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t) {
  std::lock_guard<std::mutex> g(pool_lock);
  if (pool->destroyed) return cudaErrorInvalidValue;
  auto it = pool->free_blocks.lower_bound(bytes ? bytes : 1);
  if (it != pool->free_blocks.end()) {
    *p = it->second;
    pool->free_blocks.erase(it);
    return cudaSuccess;
  }
  cudaError_t e = cudaMalloc(p, bytes);
  if (e == cudaSuccess) pool_blocks[*p] = {pool, bytes ? bytes : 1};
  return e;
}
cudaError_t cudaFreeAsync(void *p, cudaStream_t) {
  return emu_queue([=]() {
    std::lock_guard<std::mutex> g(pool_lock);
    auto it = pool_blocks.find(p);
    if (it == pool_blocks.end()) { /* cudaMalloc'd */
      free(p);
      return;
    }
    emu_pool *pool = it->second.first;
    if (pool->destroyed) pool_blocks.erase(it), free(p);
    else pool->free_blocks.emplace(it->second.second, p);
  });
}
cudaError_t cudaFreeHost(void *p) { emu_sync(); free(p); return cudaSuccess; }
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) { emu_sync(); memmove(d, s, n); return cudaSuccess; }
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t) {
  return emu_queue([=]() { cudaMemcpy(d, s, n, k); });
}
cudaError_t cudaMemset(void *p, int v, size_t n) { emu_sync(); memset(p, v, n); return cudaSuccess; }
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t) {
  return emu_queue([=]() { cudaMemset(p, v, n); });
}
cudaError_t cudaMemGetInfo(size_t *f, size_t *t) {
  const char *s = getenv("EMU_FREE_BYTES");
  *t = (size_t)16 << 30;
  *f = s && *s ? (size_t)strtoull(s, NULL, 10) : *t;
  return cudaSuccess;
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }
const char *cudaGetErrorString(cudaError_t e) { return e ? "emulated CUDA error" : "no error"; }
cudaError_t cudaGetDevice(int *d) { *d = cur_dev; return cudaSuccess; }
cudaError_t cudaSetDevice(int d) {
  if (d < 0 || d >= env_int("EMU_DEVICES", 1)) return cudaErrorInvalidValue;
  cur_dev = d;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int *n) { *n = env_int("EMU_DEVICES", 1); return cudaSuccess; }
cudaError_t cudaDeviceGetP2PAttribute(int *v, cudaDeviceP2PAttr a, int, int) {
  *v = a == cudaDevP2PAttrPerformanceRank ? 0 : env_int("EMU_P2P", 1);
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) { return cudaSuccess; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "bfs-emu");
  p->multiProcessorCount = env_int("EMU_SMS", 2);
  p->major = 9;
  p->sharedMemPerBlockOptin = 232448;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) {
  /* EMU_COOPERATIVE=0: a device without cooperative launches */
  *v = a == cudaDevAttrMultiProcessorCount ? env_int("EMU_SMS", 2)
       : a == cudaDevAttrCooperativeLaunch ? env_int("EMU_COOPERATIVE", 1)
       : a == cudaDevAttrClockRate         ? (int)(CLOCKS_PER_SEC / 1000) /* clock64() is clock() */
       : a == cudaDevAttrClusterLaunch     ? (env_int("EMU_CLUSTER", 8) >= 2)
                                           : env_int("EMU_SMEM_OPTIN", 232448);
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) { emu_sync(); return cudaSuccess; }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { *s = (cudaStream_t)malloc(1); return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { emu_sync(); free(s); return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { emu_sync(); return cudaSuccess; }
static std::vector<cudaStream_t> failed_streams;
cudaError_t cudaStreamQuery(cudaStream_t s) { /* launches run at once */
  emu_sync();
  std::lock_guard<std::recursive_mutex> hold(launch_lock);
  for (cudaStream_t f : failed_streams)
    if (f == s) return 719; /* cudaErrorLaunchFailure */
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new emu_event{0}; return cudaSuccess; }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned) { return cudaEventCreate(e); }
cudaError_t cudaEventDestroy(cudaEvent_t e) { emu_sync(); delete e; return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  return emu_queue([e]() { e->t = now_ms(); });
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned) { return cudaEventRecord(e, s); }
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) {
  if (capturing) return cudaErrorInvalidValue;
  capturing = new emu_graph;
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *g) {
  *g = capturing;
  capturing = nullptr;
  return *g ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long) {
  *e = new emu_graph(*g);
  return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t) {
  auto run = [e]() {
    for (auto &op : e->ops) op();
  };
  if (deferring())
    deferred.push_back(run);
  else
    run();
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t g) { delete g; return cudaSuccess; }
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e) { delete e; return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { emu_sync(); return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  emu_sync();
  *ms = (float)(b->t - a->t);
  return cudaSuccess;
}

/* wm_gpu_available for the emulated build (the library's stand-in says 0). */
extern "C" int wm_gpu_available(void) { return 1; }
extern "C" int wm_gpu_count(void) { return env_int("EMU_DEVICES", 1); }
/* A stream given a fault (emu_fault.cpp) reports a launch failure from then
 * on, as a real device's trapped context does. */
void emu_fail_stream(cudaStream_t s) {
  std::lock_guard<std::recursive_mutex> hold(launch_lock);
  failed_streams.push_back(s);
}
