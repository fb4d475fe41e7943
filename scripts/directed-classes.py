#!/usr/bin/env python3
"""Prints the class tables of matcher/motifs/directed_classes.c from igraph and
networkx (pip install igraph networkx): for every directed class of 3 and 4
vertices, igraph's representative graph (Graph.Isoclass(k, id, directed=True))
as an arc code (arc i->j is bit i*(k-1) + (j if j < i else j-1)), and for size
3 the MAN code networkx's triad_type() gives it, in the triad census's order."""

import igraph as ig
import networkx as nx

MAN_ORDER = "003 012 102 021D 021U 021C 111D 111U 030T 030C 201 120D 120U 120C 210 300".split()


def code(k: int, arcs: list[tuple[int, int]]) -> int:
    return sum(1 << (i * (k - 1) + (j if j < i else j - 1)) for i, j in arcs)


def representative(k: int, cls: int) -> list[tuple[int, int]]:
    g = ig.Graph.Isoclass(k, cls, directed=True)
    assert g.isoclass() == cls
    return g.get_edgelist()


def man(arcs: list[tuple[int, int]]) -> str:
    T = nx.DiGraph()
    T.add_nodes_from(range(3))
    T.add_edges_from(arcs)
    return nx.triad_type(T)


rows3 = {man(representative(3, c)): (c, code(3, representative(3, c))) for c in range(16)}
print("table3 (MAN code, igraph id, code):")
for name in MAN_ORDER:
    cls, c = rows3[name]
    print(f'    {{"{name}", {cls}, {c:#x}}},')
print("table4 (by igraph id):")
codes = [f"{code(4, representative(4, c)):#x}" for c in range(218)]
for i in range(0, 218, 15):
    print("    " + ", ".join(codes[i : i + 15]) + ",")
