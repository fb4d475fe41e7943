/* NCCL for the CPU emulator (see include/nccl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "nccl.h"

struct emu_comm {
  int rank, size;
};

namespace {

struct Op {
  enum { BCAST, SEND, RECV } kind;
  const void *send;
  void *recv;
  size_t bytes;
  int rank, other; /* other: root (BCAST) or peer */
};

std::vector<Op> ops;
int depth = 0;

[[noreturn]] void fail(const char *what) {
  fprintf(stderr, "emu-nccl: %s\n", what);
  abort();
}

void run_group() {
  for (const Op &a : ops) {
    if (a.kind == Op::BCAST && a.rank != a.other) {
      const Op *root = nullptr;
      for (const Op &b : ops)
        if (b.kind == Op::BCAST && b.rank == a.other && b.other == a.other) root = &b;
      if (!root) fail("broadcast without its root's call");
      if (root->bytes != a.bytes) fail("broadcast counts differ");
      memmove(a.recv, root->send, a.bytes);
    } else if (a.kind == Op::BCAST && a.send != a.recv) {
      memmove(a.recv, a.send, a.bytes);
    } else if (a.kind == Op::RECV) {
      const Op *s = nullptr;
      for (const Op &b : ops)
        if (b.kind == Op::SEND && b.rank == a.other && b.other == a.rank) {
          if (s) fail("two sends to one receive in a group");
          s = &b;
        }
      if (!s) fail("receive without a send");
      if (s->bytes != a.bytes) fail("send and receive counts differ");
      memmove(a.recv, s->send, a.bytes);
    } else if (a.kind == Op::SEND) {
      int found = 0;
      for (const Op &b : ops) found += b.kind == Op::RECV && b.rank == a.other && b.other == a.rank;
      if (found != 1) fail("send without exactly one receive");
    }
  }
  ops.clear();
}

ncclResult_t add(const Op &op) {
  ops.push_back(op);
  if (depth == 0) run_group();
  return ncclSuccess;
}

}  // namespace

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int n, const int *) {
  for (int i = 0; i < n; i++) comms[i] = new emu_comm{i, n};
  return ncclSuccess;
}
ncclResult_t ncclCommDestroy(ncclComm_t c) {
  delete c;
  return ncclSuccess;
}
ncclResult_t ncclCommAbort(ncclComm_t c) { return ncclCommDestroy(c); }
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
  if (--depth == 0) run_group();
  return ncclSuccess;
}
ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count, ncclDataType_t, int root, ncclComm_t c,
                           cudaStream_t) {
  if (root < 0 || root >= c->size) fail("broadcast root out of range");
  return add(Op{Op::BCAST, send, recv, 4 * count, c->rank, root});
}
ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t, int peer, ncclComm_t c, cudaStream_t) {
  if (peer < 0 || peer >= c->size || peer == c->rank) fail("send peer out of range");
  return add(Op{Op::SEND, send, nullptr, 4 * count, c->rank, peer});
}
ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t, int peer, ncclComm_t c, cudaStream_t) {
  if (peer < 0 || peer >= c->size || peer == c->rank) fail("receive peer out of range");
  return add(Op{Op::RECV, nullptr, recv, 4 * count, c->rank, peer});
}
