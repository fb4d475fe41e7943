/* The few NCCL calls of the partitioned BFS, for the CPU emulator
 * (emu_nccl.cpp): all-gathers and send/receive pairs are matched across the
 * communicators, from one host thread or several, and done as copies
 * (device memory is host memory here).  Partners whose counts differ abort
 * (real NCCL would corrupt memory there); a call whose partner never comes
 * waits, as real NCCL's would. */
#ifndef EMU_NCCL_H
#define EMU_NCCL_H
#include <stddef.h>

#include "cuda_runtime.h"

typedef struct emu_comm *ncclComm_t;
typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7
} ncclResult_t;
typedef enum { ncclUint32 = 3 } ncclDataType_t;
typedef struct {
  char internal[128];
} ncclUniqueId;

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int n, const int *devs);
/* Several "processes" (threads of the test standing for them) join one
 * clique by the id; the ranks of a clique made so must all join before
 * its first exchange. */
ncclResult_t ncclGetUniqueId(ncclUniqueId *id);
ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
ncclResult_t ncclCommDestroy(ncclComm_t c);
ncclResult_t ncclCommAbort(ncclComm_t c);
ncclResult_t ncclCommGetAsyncError(ncclComm_t c, ncclResult_t *r);
const char *ncclGetErrorString(ncclResult_t r);
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);
ncclResult_t ncclAllGather(const void *send, void *recv, size_t count, ncclDataType_t t, ncclComm_t c,
                           cudaStream_t s);
ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t s);
ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t s);
#endif
