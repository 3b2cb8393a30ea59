/**
 * A token id names its tenant after a dot (`tok_<16 random characters>.<tenant>`):
 * a revocation by id alone then lands in the right tenant's store, and the id
 * is still safe as a file name and a key segment (no slash, never `.` or `..`).
 */
export const TOKEN_ID_PATTERN = /^tok_[A-Za-z0-9_-]{16}\.([a-z0-9][a-z0-9_-]{0,62})$/;
