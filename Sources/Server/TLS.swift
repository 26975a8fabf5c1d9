import Crypto
public import Foundation
public import NIOSSL
import SwiftASN1
import X509

/// Where `serve --tls` gets its certificate.
public enum TLSSetup: Sendable, Equatable {
    /// A self-signed certificate kept in `directory` (`$PRICECAM_HOME/tls`), made on first use.
    case selfSigned(directory: String)
    /// The user's own certificate chain and private key (PEM files).
    case files(certificate: String, key: String)
}

/// What `serve` prints and uses: the TLS configuration, the certificate's
/// SHA-256 fingerprint (to compare with what the phone's browser shows), and
/// whether it was made just now.
public struct LoadedTLS: Sendable {
    public let configuration: TLSConfiguration
    public let fingerprint: String
    public let certificatePath: String
    public let made: Bool
}

public struct TLSError: Error, CustomStringConvertible {
    public let description: String
}

extension TLSSetup {
    static let certificateFile = "cert.pem"
    static let keyFile = "key.pem"

    /// Loads the certificate, making the self-signed one first when it is missing or expired.
    public func load(now: Date = Date()) throws(TLSError) -> LoadedTLS {
        switch self {
        case .files(let certificate, let key):
            return try Self.loaded(certificate: certificate, key: key, made: false)
        case .selfSigned(let directory):
            let cert = (directory as NSString).appendingPathComponent(Self.certificateFile)
            let key = (directory as NSString).appendingPathComponent(Self.keyFile)
            if FileManager.default.fileExists(atPath: cert), FileManager.default.fileExists(atPath: key),
                let pem = try? String(contentsOfFile: cert, encoding: .utf8), let existing = try? Certificate(pemEncoded: pem),
                existing.notValidAfter > now.addingTimeInterval(86_400)
            {
                return try Self.loaded(certificate: cert, key: key, made: false)
            }
            try Self.makeSelfSigned(certificate: cert, key: key, names: Self.localNames(), now: now)
            return try Self.loaded(certificate: cert, key: key, made: true)
        }
    }

    static func loaded(certificate: String, key: String, made: Bool) throws(TLSError) -> LoadedTLS {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate)
            guard let first = chain.first else {
                throw TLSError(description: "\(certificate) holds no certificate (a PEM file is expected)")
            }
            let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
            let configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
            return LoadedTLS(
                configuration: configuration, fingerprint: fingerprint(der: try first.toDERBytes()), certificatePath: certificate,
                made: made)
        } catch let error as TLSError {
            throw error
        } catch {
            throw TLSError(
                description:
                    "cannot use the certificate \(certificate) with the key \(key): \(error) (both must be PEM files, the key unencrypted, and match)"
            )
        }
    }

    /// SHA-256 of the certificate's DER bytes as browsers show it: `AB:CD:…`.
    public static func fingerprint(der: [UInt8]) -> String {
        SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The names a phone may reach this machine by: localhost, the host name, and every
    /// address of its interfaces (so the certificate names the address the user types).
    static func localNames() -> [GeneralName] {
        var names: [GeneralName] = [.dnsName("localhost")]
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count) == 0 {
            let name = String(cString: host)
            if !name.isEmpty && name != "localhost" { names.append(.dnsName(name)) }
        }
        var addresses: [[UInt8]] = [[127, 0, 0, 1]]
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0, let first = list {
            defer { freeifaddrs(list) }
            var cursor: UnsafeMutablePointer<ifaddrs>? = first
            while let entry = cursor {
                defer { cursor = entry.pointee.ifa_next }
                guard let addr = entry.pointee.ifa_addr else { continue }
                switch Int32(addr.pointee.sa_family) {
                case AF_INET:
                    let a = addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
                    addresses.append(withUnsafeBytes(of: a) { Array($0) })
                case AF_INET6:
                    let a = addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    addresses.append(withUnsafeBytes(of: a) { Array($0) })
                default: break
                }
            }
        }
        var seen = Set<[UInt8]>()
        for a in addresses where seen.insert(a).inserted { names.append(.ipAddress(ASN1OctetString(contentBytes: a[...]))) }
        return names
    }

    /// A P-256 key and a certificate for `names`, valid for 825 days (the longest
    /// validity Apple's and Google's browsers accept for a server certificate),
    /// written as PEM; the key readable by its owner only.
    static func makeSelfSigned(certificate: String, key: String, names: [GeneralName], now: Date) throws(TLSError) {
        let directory = (certificate as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let privateKey = P256.Signing.PrivateKey()
            let subject = try DistinguishedName {
                CommonName("pricecam")
                OrganizationName("pricecam serve (self-signed)")
            }
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            }
            let made = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(privateKey.publicKey),
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(825 * 86_400),
                issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                issuerPrivateKey: Certificate.PrivateKey(privateKey))
            let keyPEM = privateKey.pemRepresentation + "\n"
            // The key first, created owner-only, then the certificate that names it.
            let keyTemp = key + ".tmp"
            guard FileManager.default.createFile(atPath: keyTemp, contents: Data(keyPEM.utf8), attributes: [.posixPermissions: 0o600])
            else { throw TLSError(description: "cannot write \(keyTemp)") }
            _ = rename(keyTemp, key)
            try (made.serializeAsPEM().pemString + "\n").write(toFile: certificate, atomically: true, encoding: .utf8)
        } catch let error as TLSError {
            throw error
        } catch {
            throw TLSError(
                description: "cannot make a self-signed certificate in \(directory): \(error) (check that the folder is writable)")
        }
    }
}
