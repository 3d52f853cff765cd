// tcmalloc (gperftools, the "minimal" build without the heap profiler) for Swift. Linking it into an
// executable replaces the C allocator (`malloc`, `free` and the rest) for the whole process;
// the declarations below are only needed to ask which version serves it.
#ifndef SWIFTY_CTCMALLOC_SHIM_H
#define SWIFTY_CTCMALLOC_SHIM_H

#include <gperftools/tcmalloc.h>

#endif
