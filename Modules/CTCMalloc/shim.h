// tcmalloc (gperftools, the "minimal" build without the heap profiler). Linking it into an
// executable replaces the C allocator (`malloc`, `free` and the rest) for the whole process, so
// `swiftyd` only depends on this target; nothing needs to call it. The header declares its
// extensions (`tc_version` and others) for code that wants them.
#ifndef SWIFTY_CTCMALLOC_SHIM_H
#define SWIFTY_CTCMALLOC_SHIM_H

#include <gperftools/tcmalloc.h>

#endif
