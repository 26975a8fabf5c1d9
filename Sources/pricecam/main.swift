import ArgumentParser
import CTesseractHandoff
import Foundation
import OCR
import Pipeline

// Debian's libtesseract uses OpenMP, and libgomp reads OMP_THREAD_LIMIT only when
// it loads (at process start, as a dependency of libtesseract). Without a limit
// every image is ~6x slower on 2 cores, so re-execute once with it set.
// Parallelism comes from one engine per worker thread instead.
if ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    execv("/proc/self/exe", argv)
    // Only reached when exec failed: go on, slower, and say so.
    Console.error(
        "warning: could not re-execute with OMP_THREAD_LIMIT=1 (\(String(cString: strerror(errno)))); OCR will be slow. Set OMP_THREAD_LIMIT=1 before starting pricecam."
    )
}

// Freed memory stays with the process for the next image instead of going back to the
// kernel at once. glibc's defaults give every block over 128 KB (or, once its threshold has
// grown, over 32 MB) its own mmap and return the heap's free top beyond 128 KB, so each
// image's buffers (Leptonica's copies of a scan, Tesseract's thresholded page) were mapped,
// zeroed by the kernel page by page, and unmapped again: on sroie-dev (63 receipt scans of up
// to 12 MP, 2 jobs) 14 of 83 CPU-s were the kernel's. With blocks up to 256 MB (a 32-bit copy
// of a 64 MP image) taken from the heap and up to 1 GB of free heap kept, it is 3 CPU-s, and
// the batch's wall time 44 → 33 s; peak memory 380 → 465 MB, flat after the first images.
let mallocPolicyApplied = pricecam_keepFreedMemory() != 0

// With PRICECAM_DEBUG, say how many images Tesseract handed to its LSTM uncompressed
// (Sources/CTesseractHandoff/handoff.c; 0 means the fast handoff is not in use).
if OCRLog.enabled {
    atexit {
        OCRLog.write("tesseract image handoffs written uncompressed: \(pricecam_fastHandoffCount())")
        OCRLog.write("tesseract engine loads without the universal ambigs: \(pricecam_universalAmbigsSkipped())")
        OCRLog.write("malloc policy applied (freed heap kept for the next image): \(mallocPolicyApplied ? 1 : 0)")
    }
}

StandardOutput.ignoreBrokenPipes()
await PriceCam.start()
