// Handing memory the process freed back to the system between phases.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ferry {

// Returns the free pages inside the heap to the system (glibc's malloc_trim; a no-op elsewhere).
// A phase that built many small objects and dropped most of them (a tree's pre-passes keep a
// little of every file) leaves its survivors scattered through the heap: the freed pages between
// them stay resident, and the next phase would add its own memory on top of them. Costs a walk of
// the allocator's free lists: call it between phases, not per object.
inline void give_back_free_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace ferry
