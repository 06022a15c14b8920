//! Fortran entry points (filled in by its own change).
