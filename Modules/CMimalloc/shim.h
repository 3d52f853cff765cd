// mimalloc. Linking it into an executable replaces the C allocator (`malloc`, `free` and the
// rest) for the whole process, so `swiftyd` only depends on this target; nothing needs to call
// it. The header declares its extensions (`mi_version` and others) for code that wants them.
#ifndef SWIFTY_CMIMALLOC_SHIM_H
#define SWIFTY_CMIMALLOC_SHIM_H

#include <mimalloc.h>

#endif
