#!/usr/bin/env python3
"""Writes tests/mpi_routines.txt: every C routine of the MPI standard as pympistandard (PyPI)
describes it, one per line: NAME, then `deprecated` if the standard deprecates it, then `5.0`
for what MPI 5.0 added (the ABI routines), which an MPI 4.1 library need not have.

    pip install pympistandard==0.2.0 && python3 ci/mpi_routines.py > tests/mpi_routines.txt

tests/routines.rs compares the list with mpicache's entry points."""
import pympistandard as std

std.use_api_version(1)
names = {}
for p in std.PROCEDURES.values():
    attrs = p._parseset["attributes"]
    if attrs.get("callback") or attrs.get("predefined_function") or not attrs.get("c_expressible"):
        continue
    base = p.express.iso_c.name
    forms = [base]
    # The `_c` form exists where a parameter is a count or displacement (a POLY* kind).
    if any(q["kind"].startswith("POLY") for q in p._parseset["parameters"]):
        forms.append(base + "_c")
    for n in forms:
        tags = []
        if attrs.get("deprecated"):
            tags.append("deprecated")
        # MPI 5.0's additions: the ABI queries and the integer handle conversions.
        if n.startswith("MPI_Abi_") or n.endswith("_toint") or n.endswith("_fromint"):
            tags.append("5.0")
        names[n] = tags
print("# Every C routine of the MPI standard (pympistandard 0.2.0); written by ci/mpi_routines.py.")
for n in sorted(names):
    print(" ".join([n] + names[n]))
