// The process's memory policy (called once from main.swift, before any worker starts).
#include <malloc.h>
#include "process_memory.h"

int pricecam_keepFreedMemory(void) {
    // Blocks up to 256 MB come from the heap (a 32-bit copy of a 64 MP image), and up to
    // 1 GB of free heap is kept for the next image (see main.swift for what it saves).
    return mallopt(M_MMAP_THRESHOLD, 256 << 20) && mallopt(M_TRIM_THRESHOLD, 1 << 30);
}
