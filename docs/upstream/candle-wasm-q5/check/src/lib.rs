//! Empty: the check is tests/same_bits.rs.
