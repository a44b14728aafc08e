#ifndef GRANDFATHER_BYTE_SCAN_H
#define GRANDFATHER_BYTE_SCAN_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// A bit for each of the 64 bytes at `bytes` that is a quote, CR, LF or `delimiter`, bit i
/// for byte i: the places where a CSV line's fields can end. `PlainLineReader` walks these
/// bits rather than the bytes, so a field costs a bit to find, not a test per byte and a
/// mispredicted branch at its end. Four SSE2 compares and a movemask per 16 bytes on x86-64
/// (SSE2 is part of the architecture); a byte loop elsewhere. Static inline, so that Swift
/// inlines it into the reader's loop.
static inline uint64_t grandfather_csv_boundaries(const uint8_t *bytes, uint8_t delimiter) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i cr = _mm_set1_epi8('\r');
    const __m128i lf = _mm_set1_epi8('\n');
    const __m128i delimiters = _mm_set1_epi8((char)delimiter);
    uint64_t mask = 0;
    for (int block = 0; block < 4; block++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + 16 * block));
        __m128i hits = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, cr)),
            _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, delimiters)));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(hits) << (16 * block);
    }
    return mask;
#else
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t b = bytes[i];
        if (b == '"' || b == '\r' || b == '\n' || b == delimiter) mask |= (uint64_t)1 << i;
    }
    return mask;
#endif
}

/// A bit for each of the 64 bytes at `bytes` that is a quote, a backslash or a control byte
/// (below 0x20), bit i for byte i: where a JSON string ends, or stops being plain.
/// `FlatObjectReader` finds a string's closing quote from these bits and leaves a string with
/// any other stop to the general scanner. Three SSE2 compares (control bytes by a saturating
/// subtract) and a movemask per 16 bytes on x86-64; a byte loop elsewhere.
static inline uint64_t grandfather_json_string_stops(const uint8_t *bytes) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i highestControl = _mm_set1_epi8(0x1F);
    const __m128i zero = _mm_setzero_si128();
    uint64_t mask = 0;
    for (int block = 0; block < 4; block++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + 16 * block));
        __m128i control = _mm_cmpeq_epi8(_mm_subs_epu8(v, highestControl), zero);
        __m128i hits = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(hits) << (16 * block);
    }
    return mask;
#else
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t b = bytes[i];
        if (b == '"' || b == '\\' || b < 0x20) mask |= (uint64_t)1 << i;
    }
    return mask;
#endif
}

#endif

