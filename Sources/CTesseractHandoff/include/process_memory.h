#ifndef PRICECAM_PROCESS_MEMORY_H
#define PRICECAM_PROCESS_MEMORY_H

/// Keeps freed memory in the process for reuse instead of returning it to the kernel at
/// once (glibc `mallopt`); 1 when glibc took both settings.
int pricecam_keepFreedMemory(void);

#endif
