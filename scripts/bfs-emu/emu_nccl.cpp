/* NCCL for the CPU emulator (see include/nccl.h).  The communicators of one
 * ncclCommInitAll form a clique.  An all-gather is a round of the clique:
 * the call of the last rank to arrive, from whichever host thread, does the
 * copies, and the others wait for it.  A send leaves
 * a copy of its data in the receiver's mailbox at once; a receive waits for
 * it.  Kernels run at their launch here, so the data is ready at the call.
 * ncclCommAbort wakes every waiter of the clique with an error, as real
 * NCCL's abort ends the peers' pending operations.  ncclCommInitRank's
 * ranks of one unique id form a clique too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "nccl.h"

namespace {

struct Op {
  enum { GATHER, SEND, RECV } kind;
  const void *send;
  void *recv;
  size_t bytes;
  int rank, other; /* other: communicator size (GATHER) or peer */
};

struct Clique {
  int size = 0, refs = 0;
  std::mutex m;
  std::condition_variable cv;
  std::vector<Op> round;       /* the all-gathers of the current round */
  std::vector<char> arrived;   /* ranks in the round */
  int narrived = 0;
  unsigned long long done = 0; /* rounds completed */
  bool aborted = false;
  std::map<std::pair<int, int>, std::deque<std::vector<char>>> mail; /* (from, to) */
};

}  // namespace

struct emu_comm {
  int rank, size;
  Clique *clique;
};

namespace {

struct Pending {
  Op op;
  Clique *clique;
};
thread_local std::vector<Pending> ops; /* this thread's group */
thread_local int depth = 0;

[[noreturn]] void fail(const char *what) {
  fprintf(stderr, "emu-nccl: %s\n", what);
  abort();
}

/* The round's all-gathers, every rank's call present. */
void run_round(std::vector<Op> &round) {
  for (const Op &a : round) {
    if ((int)round.size() != a.other) fail("all-gather without every rank's call");
    for (const Op &b : round)
      if (b.bytes != a.bytes) fail("all-gather counts differ");
  }
  for (const Op &a : round)
    for (const Op &b : round) memmove((char *)a.recv + (size_t)b.rank * a.bytes, b.send, a.bytes);
  round.clear();
}

/* This thread's group: sends to the mailboxes, receives from them, and its
 * collectives into the round (waiting until the round is complete). */
ncclResult_t run_group() {
  std::vector<Pending> mine;
  mine.swap(ops);
  if (mine.empty()) return ncclSuccess;
  Clique *cl = mine[0].clique;
  for (const Pending &p : mine)
    if (p.clique != cl) fail("one group over communicators of two cliques");
  std::unique_lock<std::mutex> lk(cl->m);
  if (cl->aborted) return ncclRemoteError;
  for (const Pending &p : mine)
    if (p.op.kind == Op::SEND) {
      const char *b = (const char *)p.op.send;
      cl->mail[{p.op.rank, p.op.other}].emplace_back(b, b + p.op.bytes);
    }
  cl->cv.notify_all();
  std::vector<char> ranks(cl->size, 0);
  int colls = 0;
  for (const Pending &p : mine)
    if (p.op.kind == Op::GATHER) {
      /* real NCCL matches several per group in order; one is emulated */
      if (ranks[p.op.rank] || cl->arrived[p.op.rank]) fail("two all-gathers of one rank in one round");
      cl->round.push_back(p.op), colls++;
      ranks[p.op.rank] = 1, cl->arrived[p.op.rank] = 1, cl->narrived++;
    }
  if (colls) {
    const unsigned long long round = cl->done;
    if (cl->narrived == cl->size) {
      run_round(cl->round);
      cl->arrived.assign(cl->size, 0), cl->narrived = 0, cl->done++;
      cl->cv.notify_all();
    } else {
      cl->cv.wait(lk, [&] { return cl->done != round || cl->aborted; });
      if (cl->done == round) return ncclRemoteError;
    }
  }
  for (const Pending &p : mine) {
    if (p.op.kind != Op::RECV) continue;
    auto &box = cl->mail[{p.op.other, p.op.rank}];
    cl->cv.wait(lk, [&] { return !box.empty() || cl->aborted; });
    if (box.empty()) return ncclRemoteError;
    if (box.front().size() != p.op.bytes) fail("send and receive counts differ");
    memcpy(p.op.recv, box.front().data(), p.op.bytes);
    box.pop_front();
  }
  return ncclSuccess;
}

ncclResult_t add(const Op &op, ncclComm_t c) {
  ops.push_back(Pending{op, c->clique});
  return depth == 0 ? run_group() : ncclSuccess;
}

}  // namespace

namespace {
std::mutex ids_lock;
unsigned long long ids_made = 0;
std::map<unsigned long long, Clique *> joining; /* cliques by unique id, until every rank joined */
}  // namespace

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  std::lock_guard<std::mutex> g(ids_lock);
  memset(id, 0, sizeof *id);
  const unsigned long long k = ++ids_made;
  memcpy(id->internal, &k, sizeof k);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank) {
  unsigned long long k;
  memcpy(&k, id.internal, sizeof k);
  if (k == 0 || rank < 0 || rank >= nranks) fail("ncclCommInitRank: no such id or rank");
  std::lock_guard<std::mutex> g(ids_lock);
  Clique *&cl = joining[k];
  if (!cl) {
    cl = new Clique;
    cl->size = nranks;
    cl->arrived.assign(nranks, 0);
  }
  if (cl->size != nranks) fail("ncclCommInitRank: ranks of one id disagree on the size");
  *comm = new emu_comm{rank, nranks, cl};
  if (++cl->refs == nranks) joining.erase(k);
  return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int n, const int *) {
  Clique *cl = new Clique;
  cl->size = n, cl->refs = n;
  cl->arrived.assign(n, 0);
  for (int i = 0; i < n; i++) comms[i] = new emu_comm{i, n, cl};
  return ncclSuccess;
}
ncclResult_t ncclCommDestroy(ncclComm_t c) {
  Clique *cl = c->clique;
  delete c;
  bool last;
  {
    std::lock_guard<std::mutex> g(cl->m);
    last = --cl->refs == 0;
  }
  if (last) delete cl;
  return ncclSuccess;
}
ncclResult_t ncclCommAbort(ncclComm_t c) {
  {
    std::lock_guard<std::mutex> g(c->clique->m);
    c->clique->aborted = true;
    c->clique->cv.notify_all();
  }
  return ncclCommDestroy(c);
}
ncclResult_t ncclCommGetAsyncError(ncclComm_t, ncclResult_t *r) {
  *r = ncclSuccess;
  return ncclSuccess;
}
const char *ncclGetErrorString(ncclResult_t r) { return r ? "emulated NCCL error" : "no error"; }
ncclResult_t ncclGroupStart(void) {
  depth++;
  return ncclSuccess;
}
ncclResult_t ncclGroupEnd(void) {
  if (depth == 0) fail("ncclGroupEnd without ncclGroupStart");
  return --depth == 0 ? run_group() : ncclSuccess;
}
ncclResult_t ncclAllGather(const void *send, void *recv, size_t count, ncclDataType_t, ncclComm_t c, cudaStream_t) {
  return add(Op{Op::GATHER, send, recv, 4 * count, c->rank, c->size}, c);
}
ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t, int peer, ncclComm_t c, cudaStream_t) {
  if (peer < 0 || peer >= c->size || peer == c->rank) fail("send peer out of range");
  return add(Op{Op::SEND, send, nullptr, 4 * count, c->rank, peer}, c);
}
ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t, int peer, ncclComm_t c, cudaStream_t) {
  if (peer < 0 || peer >= c->size || peer == c->rank) fail("receive peer out of range");
  return add(Op{Op::RECV, nullptr, recv, 4 * count, c->rank, peer}, c);
}
