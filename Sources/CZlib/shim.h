#ifndef GRANDFATHER_CZLIB_SHIM_H
#define GRANDFATHER_CZLIB_SHIM_H
// Debian's zlib1g-dev installs zlib.h at the top of the include path.
#include <zlib.h>

// inflateInit2 and deflateInit2 are macros (they pass zlib.h's version and z_stream's size
// to the library, which checks both), so Swift reaches them through these functions.

// Starts inflating gzip data only (a zlib or raw stream is an error): 16 + MAX_WBITS.
static inline int grandfather_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}

// Starts inflating raw deflate data (a zip archive's file): -MAX_WBITS.
static inline int grandfather_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

// Starts deflating into one gzip member at `level` (the tests write their gzip files so).
static inline int grandfather_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}
#endif
