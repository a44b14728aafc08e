#ifndef GRANDFATHER_CLIBCSV_SHIM_H
#define GRANDFATHER_CLIBCSV_SHIM_H
// Debian's libcsv-dev installs csv.h at the top of the include path.
#include <stddef.h>
#include <csv.h>
#endif
