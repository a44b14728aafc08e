// The scan is static inline in include/byte_scan.h; a C target needs one source file.
#include "byte_scan.h"
