//! The MIB IR (filled in below).
