"""warpmatch: count and list small patterns, count motifs and run BFS on large graphs.

A binding over the C library libwarpmatch (api/warpmatch.h), which runs on an
NVIDIA GPU when one is usable and on the CPU (OpenMP) otherwise::

    import warpmatch
    g = warpmatch.load("facebook_combined.txt")
    g.count("triangle")             # an int
    g.motifs(4)                     # {"4-path": ..., "4-star": ..., ...}
    g.motifs(3, random=100, seed=1) # significance: z-scores against degree-preserving random graphs
    d.motifs(3, directed=True)      # a directed graph's triad census: {"021D": ..., "030C": ...}
    g.orbits(5)                     # numpy uint64, n x 73 graphlet orbit counts
    g.list("4-clique", limit=10)    # numpy uint32 array, one match a row
    g.bfs(0)                        # numpy int32 levels, -1 unreached
    g.distances([0, 5])             # 2 x n hops, -1 unreached
    g.count("triangle", per_vertex=True)  # numpy uint64, the triangles at each vertex
    g.nodes[g.list("triangle")]     # the matches by the vertices' own names
    warpmatch.generate("ba", vertices=10**5, attach=8)   # a synthetic Graph

Failed calls raise ``warpmatch.Error`` with the library's message, as one of
its classes that are also Python's own: ``InputError`` and ``UsageError`` are
ValueErrors, ``MissingFileError`` a FileNotFoundError (and an InputError),
``DeviceError`` a RuntimeError; a value of the wrong type raises TypeError.
The GIL is released while the library works; Ctrl-C stops a long call
(KeyboardInterrupt, the graph still usable), and ``progress=True`` (the
default in a notebook or a terminal, where tqdm imports) shows its progress.
"""

from ._api import (
    CountInfo,
    DirectedMotif,
    Graph,
    Motif,
    MotifSignificance,
    Pattern,
    SignificanceTable,
    generate,
    gpu_available,
    load,
    version,
)
from ._errors import DeviceError, Error, InputError, Interrupted, MissingFileError, UsageError

__version__: str = version()

__all__ = [
    "CountInfo",
    "DeviceError",
    "DirectedMotif",
    "Error",
    "Graph",
    "InputError",
    "Interrupted",
    "MissingFileError",
    "Motif",
    "MotifSignificance",
    "Pattern",
    "SignificanceTable",
    "UsageError",
    "__version__",
    "generate",
    "gpu_available",
    "load",
    "version",
]
