import Foundation
public import OCR

/// Extractors on worker threads (one OCR engine each) taking jobs in arrival
/// order, for callers that come and go: the web app's scans. Batch and live
/// run their own pools over the same `WorkerPool`.
public final class ExtractorPool: Sendable {
    public let settings: ExtractionSettings
    private let jobs: Mailbox<Job>
    private let pool: WorkerPool<OCRError>

    private struct Job: Sendable {
        var run: @Sendable (Extractor) -> Void
    }

    /// Starts `workers` threads and waits until their engines are loaded;
    /// throws the first engine's error (nothing is left running then).
    public init(settings: ExtractionSettings, workers: Int) throws(OCRError) {
        self.settings = settings
        let jobs = Mailbox<Job>(capacity: Int.max, policy: .fifo)
        self.jobs = jobs
        pool = WorkerPool<OCRError>(
            count: workers, name: "pricecam-scan",
            make: { () throws(OCRError) -> Extractor in try Extractor(settings: settings) },
            next: { jobs.take() }, work: { extractor, job in job.run(extractor) })
        if let error = pool.waitStarted().firstError {
            jobs.close()
            pool.wait()
            throw error
        }
    }

    /// Jobs waiting for a worker.
    public var queued: Int { jobs.count }

    /// Reads an image held in memory on the next free worker.
    public func extract(bytes: [UInt8], name: String) async -> ImageResult {
        await withCheckedContinuation { (done: CheckedContinuation<ImageResult, Never>) in
            let refused = jobs.put(Job { extractor in done.resume(returning: extractor.extract(bytes: bytes, name: name)) })
            if !refused.isEmpty {  // closed: the pool is shutting down
                done.resume(
                    returning: ImageResult(
                        file: name, error: InputFailure(code: "shutting_down", message: "\(name): not read, the OCR workers are stopping")))
            }
        }
    }

    /// Lets the workers finish the jobs already queued, then end.
    public func close() {
        jobs.close()
    }

    /// `close()`, then waits until the queued jobs are done.
    public func shutdown() {
        jobs.close()
        pool.wait()
    }
}
