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

// With PRICECAM_DEBUG, say how many images Tesseract handed to its LSTM uncompressed
// (Sources/CTesseractHandoff/handoff.c; 0 means the fast handoff is not in use).
if OCRLog.enabled {
    atexit { OCRLog.write("tesseract image handoffs written uncompressed: \(pricecam_fastHandoffCount())") }
}

StandardOutput.ignoreBrokenPipes()
await PriceCam.start()
