import Foundation
import NIOSSL
import Testing

@testable import Server
import TestSupport

@Suite("serve --tls: the certificate")
struct TLSTests {
    @Test func aSelfSignedCertificateIsMadeOnceAndKept() throws {
        let dir = try Scratch.folder("pricecam-tls") + "/tls"
        let first = try TLSSetup.selfSigned(directory: dir).load()
        #expect(first.made)
        let again = try TLSSetup.selfSigned(directory: dir).load()
        #expect(!again.made)
        #expect(again.fingerprint == first.fingerprint)
        // The fingerprint is the SHA-256 of the certificate as stored, in the form browsers show.
        let stored = try NIOSSLCertificate.fromPEMFile(dir + "/cert.pem")[0]
        #expect(first.fingerprint == TLSSetup.fingerprint(der: try stored.toDERBytes()))
        #expect(first.fingerprint.split(separator: ":").count == 32)
        // The key is its owner's only.
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/key.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func anExpiredCertificateIsMadeAgain() throws {
        let dir = try Scratch.folder("pricecam-tls") + "/tls"
        let first = try TLSSetup.selfSigned(directory: dir).load()
        let later = try TLSSetup.selfSigned(directory: dir).load(now: Date().addingTimeInterval(900 * 86_400))
        #expect(later.made && later.fingerprint != first.fingerprint)
    }

    @Test func filesThatAreNotACertificateAreNamedInTheError() throws {
        let dir = try Scratch.folder("pricecam-tls")
        try "not a certificate".write(toFile: dir + "/c.pem", atomically: true, encoding: .utf8)
        do {
            _ = try TLSSetup.files(certificate: dir + "/c.pem", key: dir + "/k.pem").load()
            Issue.record("a bad certificate was accepted")
        } catch {
            #expect(error.description.contains(dir + "/c.pem"))
        }
    }
}
