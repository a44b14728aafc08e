import Crypto
import Dispatch
import Foundation
import GrandfatherEngine
import SwiftASN1
import Synchronization
@_spi(FixedExpiryValidationTime) import X509

/// Checks App Store JWS the way apple/app-store-server-library-swift's `ChainVerifier` does
/// offline (FORMATS.md §6), with one-line refusal reasons.
///
/// In order: `alg` must be `ES256`; `x5c` must hold exactly 3 certificates; leaf → intermediate must chain, by
/// swift-certificates' RFC 5280 path validation at the validation time, to Apple Root CA - G3
/// or a `--trusted-root` (`x5c[2]` is never trusted); the intermediate and the leaf must carry
/// Apple's marker OIDs; and the ES256 signature over `header.payload` must hold under the
/// leaf's P-256 key.
///
/// Refusal reasons, one line each: `no alg in the JWS header`, `alg is "HS256", not ES256`,
/// `no x5c certificate chain in the JWS header`, `x5c holds 2 certificates, not 3`,
/// `no signedDate to verify at; use --verify-at now`, `x5c[1] is not a DER X.509 certificate`,
/// `the intermediate certificate (x5c[1]) did not issue the leaf certificate (x5c[0])`,
/// `unknown root: the chain does not end in Apple Root CA - G3 or a --trusted-root`,
/// `certificate expired at signedDate <instant> (leaf valid until <instant>)` (or `at now`,
/// or `not yet valid … valid from`), `intermediate certificate lacks Apple marker OID
/// 1.2.840.113635.100.6.2.1`, `leaf certificate lacks Apple marker OID
/// 1.2.840.113635.100.6.11.1`, `leaf certificate key is not P-256, as ES256 requires`,
/// `bad signature: 70 bytes, not the 64 of raw r||s`, `bad signature`.
///
/// Thousands of JWS share one chain, so a validated chain is cached with the window in which
/// all its certificates are valid, and reused for any validation time inside it. The cache is
/// shared by copies and safe to use from several threads at once.
struct SignatureVerifier: JWSChecking {
    /// The instant a chain must be valid at.
    enum ValidationTime: Sendable, Equatable {
        /// The payload's own signing instant (the default): old JWS stay verifiable after
        /// their leaf certificate expires.
        case signedDate
        /// `--verify-at now`: the run's clock instant.
        case now(Instant)
    }

    private let roots: CertificateStore
    private let validationTime: ValidationTime
    private let cache = ChainCache()

    /// Creates a verifier that trusts Apple Root CA - G3 and `additionalRoots`.
    ///
    /// - Parameters:
    ///   - additionalRoots: DER certificates from `--trusted-root`, as `loadRoots` returns
    ///     them (it refuses files that do not parse; a DER that does not parse is ignored here).
    ///   - validationTime: The instant chains must be valid at.
    init(additionalRoots: [[UInt8]] = [], validationTime: ValidationTime) {
        self.roots = CertificateStore(
            ([AppleRootCA.der] + additionalRoots).compactMap { try? Certificate(derEncoded: $0) })
        self.validationTime = validationTime
    }

    func check(_ jws: CompactJWS, signedAt: Instant?) -> SignatureOutcome {
        guard let algorithm = jws.header.algorithm else { return .refused("no alg in the JWS header") }
        guard algorithm == "ES256" else { return .refused("alg is \"\(algorithm)\", not ES256") }
        guard let x5c = jws.header.certificateChain else {
            return .refused("no x5c certificate chain in the JWS header")
        }
        guard x5c.count == 3 else {
            return .refused("x5c holds \(x5c.count) certificate\(x5c.count == 1 ? "" : "s"), not 3")
        }
        let time: Instant
        let timeName: String
        switch validationTime {
        case .signedDate:
            guard let signedAt else { return .refused("no signedDate to verify at; use --verify-at now") }
            (time, timeName) = (signedAt, "signedDate")
        case .now(let now):
            (time, timeName) = (now, "now")
        }
        let key: P256.Signing.PublicKey
        switch chainKey(ChainKey(leaf: x5c[0], intermediate: x5c[1], root: x5c[2]), at: time, named: timeName) {
        case .success(let trusted): key = trusted
        case .failure(let refusal): return .refused(refusal.reason)
        }
        guard jws.signature.count == 64 else {
            return .refused("bad signature: \(jws.signature.count) bytes, not the 64 of raw r||s")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
            key.isValidSignature(signature, for: jws.signingInput)
        else { return .refused("bad signature") }
        return .verified
    }

    /// A refusal of the chain, as a `Result` failure.
    private struct ChainRefusal: Error {
        var reason: String
    }

    /// The leaf's key when the chain is trusted at `time`, from the cache when it can be.
    private func chainKey(_ chain: ChainKey, at time: Instant, named timeName: String) -> Result<
        P256.Signing.PublicKey, ChainRefusal
    > {
        switch cache.verdict(for: chain) {
        case .trusted(let key, let window) where window.contains(time): return .success(key)
        case .refused(let reason, let at) where at == time: return .failure(ChainRefusal(reason: reason))
        default: break
        }
        let verdict = validate(chain, at: time, named: timeName)
        cache.store(verdict, for: chain)
        switch verdict {
        case .trusted(let key, _): return .success(key)
        case .refused(let reason, _): return .failure(ChainRefusal(reason: reason))
        }
    }

    /// Validates the chain with swift-certificates' `Verifier` (RFC 5280 and the App Store
    /// marker policy) and words a failure.
    private func validate(_ chain: ChainKey, at time: Instant, named timeName: String) -> ChainVerdict {
        var certificates: [Certificate] = []
        for (index, der) in [chain.leaf, chain.intermediate, chain.root].enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else {
                return .refused(reason: "x5c[\(index)] is not a DER X.509 certificate", at: time)
            }
            certificates.append(certificate)
        }
        let leaf = certificates[0]
        let intermediate = certificates[1]
        let date = Date(instant: time)
        let roots = self.roots
        let result = runBlocking {
            var verifier = Verifier(rootCertificates: roots) {
                RFC5280Policy(fixedExpiryValidationTime: date)
                AppStoreMarkerPolicy()
            }
            return await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        }
        switch result {
        case .validCertificate(let validated):
            guard let key = P256.Signing.PublicKey(leaf.publicKey) else {
                return .refused(reason: "leaf certificate key is not P-256, as ES256 requires", at: time)
            }
            let validChain = Array(validated)
            let from = validChain.map { Instant(date: $0.notValidBefore) }.max() ?? time
            let until = validChain.map { Instant(date: $0.notValidAfter) }.min() ?? time
            return .trusted(key: key, window: from...until)
        case .couldNotValidate(let failures):
            let reason =
                failures.first.map { Self.reason(for: $0, at: time, named: timeName) }
                ?? Self.noTrustedPath(leaf: leaf, intermediate: intermediate)
            return .refused(reason: reason, at: time)
        }
    }

    /// Why no candidate chain reached a trusted root.
    private static func noTrustedPath(leaf: Certificate, intermediate: Certificate) -> String {
        guard leaf.issuer == intermediate.subject, intermediate.publicKey.isValidSignature(leaf.signature, for: leaf)
        else { return "the intermediate certificate (x5c[1]) did not issue the leaf certificate (x5c[0])" }
        return "unknown root: the chain does not end in \(AppleRootCA.name) or a --trusted-root"
    }

    /// The one-line reason a chain that reached a trusted root failed a policy.
    private static func reason(
        for failure: CertificateValidationResult.PolicyFailure,
        at time: Instant,
        named timeName: String
    ) -> String {
        let roles = ["leaf", "intermediate", "root"]
        for (index, certificate) in failure.chain.enumerated() {
            let role = index < roles.count ? roles[index] : "certificate \(index + 1)"
            let from = Instant(date: certificate.notValidBefore)
            let until = Instant(date: certificate.notValidAfter)
            guard from <= until else { continue }
            if time < from { return "certificate not yet valid at \(timeName) \(time) (\(role) valid from \(from))" }
            if time > until { return "certificate expired at \(timeName) \(time) (\(role) valid until \(until))" }
        }
        let text = failure.policyFailureReason.description
        if AppStoreMarkerPolicy.reasons.contains(text) { return text }
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "certificate chain fails RFC 5280: \(oneLine)"
    }
}

// MARK: - Trusted roots

extension SignatureVerifier {
    /// Reads a `--trusted-root` file: one DER certificate, or PEM holding one or more.
    ///
    /// - Parameter path: The file to read.
    /// - Returns: Each certificate's DER.
    /// - Throws: A one-line `GrandfatherError` naming the file.
    static func loadRoots(path: String) throws(GrandfatherError) -> [[UInt8]] {
        let bytes = try ReadableFile.readAll(path, as: .trustedRoot, limit: 1 << 20) { size -> GrandfatherError in
            .input(file: path, line: nil, message: "trusted root file of \(size) bytes is no certificate (over 1 MiB)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("-----BEGIN") else {
            guard (try? Certificate(derEncoded: bytes)) != nil else {
                throw .input(file: path, line: nil, message: "trusted root is not a DER or PEM X.509 certificate")
            }
            return [bytes]
        }
        guard let documents = try? PEMDocument.parseMultiple(pemString: text) else {
            throw .input(file: path, line: nil, message: "trusted root PEM does not parse")
        }
        let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }
        guard !certificates.isEmpty else {
            throw .input(file: path, line: nil, message: "trusted root PEM holds no CERTIFICATE block")
        }
        for (index, document) in certificates.enumerated()
        where (try? Certificate(derEncoded: document.derBytes)) == nil {
            throw .input(file: path, line: nil, message: "trusted root PEM certificate \(index + 1) does not parse")
        }
        return certificates.map(\.derBytes)
    }
}

// MARK: - Policy

/// Apple's App Store chain policy (the library's `AppStoreOIDPolicy`): leaf, intermediate and
/// root, the intermediate marked as Apple WWDR and the leaf as a receipt signer.
private struct AppStoreMarkerPolicy: VerifierPolicy {
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    static let lengthReason = "the chain to the trusted root is not leaf, intermediate and root"
    static let intermediateReason = "intermediate certificate lacks Apple marker OID \(intermediateMarker)"
    static let leafReason = "leaf certificate lacks Apple marker OID \(leafMarker)"
    /// Every reason this policy gives; `SignatureVerifier` passes them through unchanged.
    static let reasons: Set = [lengthReason, intermediateReason, leafReason]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard chain.count == 3 else { return .failsToMeetPolicy(reason: Self.lengthReason) }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: Self.intermediateReason)
        }
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: Self.leafReason)
        }
        return .meetsPolicy
    }
}

// MARK: - Cache

/// The certificates of one JWS chain, as `x5c` carries them.
private struct ChainKey: Hashable, Sendable {
    var leaf: [UInt8]
    var intermediate: [UInt8]
    var root: [UInt8]

    /// Hashes the certificates' bytes in bulk: every JWS looks its chain up here.
    func hash(into hasher: inout Hasher) {
        for certificate in [leaf, intermediate, root] { hasher.combine(contentsOf: certificate) }
    }
}

/// What validating one chain concluded.
private enum ChainVerdict: Sendable {
    /// Trusted at every instant of `window` (the intersection of the certificates' validity).
    case trusted(key: P256.Signing.PublicKey, window: ClosedRange<Instant>)
    /// Refused at `at`; reused only for that exact instant (`--verify-at now` gives one to all).
    case refused(reason: String, at: Instant)
}

/// Verdicts by chain, behind a lock. Bounded: a file of many distinct bogus chains empties
/// it now and then rather than growing it.
private final class ChainCache: Sendable {
    private static let capacity = 1024
    private let verdicts = Mutex<[ChainKey: ChainVerdict]>([:])

    func verdict(for chain: ChainKey) -> ChainVerdict? {
        verdicts.withLock { $0[chain] }
    }

    func store(_ verdict: ChainVerdict, for chain: ChainKey) {
        verdicts.withLock { verdicts in
            if verdicts.count >= Self.capacity, verdicts[chain] == nil { verdicts.removeAll() }
            verdicts[chain] = verdict
        }
    }
}

// MARK: - Bridging swift-certificates' async validation

/// Runs `operation` to completion and returns its result, blocking the calling thread.
///
/// swift-certificates validates chains only through `async` API (`Verifier.validate`), though
/// nothing in it suspends with in-memory certificate stores. The operation runs in a task that
/// prefers a private serial dispatch queue as its executor, and the caller waits on a semaphore.
/// Because the task never needs a thread of the Swift concurrency pool, a caller on a pool
/// thread (a test, a `Task`, a task group) blocks only itself: it cannot starve the pool into
/// a deadlock, as a plain `Task` awaited through a semaphore would on a small machine.
private func runBlocking<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) -> Value {
    let box = ResultBox<Value>()
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: QueueTaskExecutor.shared) {
        box.set(await operation())
        done.signal()
    }
    done.wait()
    guard let value = box.take() else { preconditionFailure("a finished task left no result") }
    return value
}

/// A value handed from a task to the thread waiting for it.
private final class ResultBox<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    func set(_ newValue: Value) { value.withLock { $0 = newValue } }

    func take() -> Value? { value.withLock { $0 } }
}

/// A task executor that runs jobs on one serial dispatch queue, outside the concurrency pool.
private final class QueueTaskExecutor: TaskExecutor {
    static let shared = QueueTaskExecutor()
    private let queue = DispatchQueue(label: "grandfather.signature-verifier")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

// MARK: - Time

extension Date {
    fileprivate init(instant: Instant) {
        self.init(timeIntervalSince1970: Double(instant.microseconds) / 1_000_000)
    }
}

extension Instant {
    fileprivate init(date: Date) {
        self.init(microseconds: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }
}
