import Crypto
import FleetAuthCodecs
import FleetTokens
import Foundation
import FuzzSupport

/// The token verifier on three kinds of input, chosen by the first byte (modulo 3):
/// - `0`: the rest is a whole compact token (splitting, base64url, header and payload JSON);
/// - `1`: the rest is the payload JSON of a token signed with the trusted key, so that the
///   claim checks are reached: a token that passes must carry the claims Foundation reads;
/// - `2`: the rest is the header JSON of a signed token with a valid payload.
/// Whatever the input, a refusal never quotes the token's signature.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenVerifier(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    guard let mode = input.first else { return 0 }
    let rest = Data(input.dropFirst())
    switch mode % 3 {
    case 0: check(String(decoding: rest, as: UTF8.self), payload: nil)
    case 1: check(TrustedSigner.shared.token(header: TrustedSigner.shared.header, payload: rest), payload: rest)
    default: check(TrustedSigner.shared.token(header: rest, payload: TrustedSigner.validPayload), payload: nil)
    }
    return 0
}

/// Verifies `token`; when `payload` (its payload JSON) is given and the token passes, holds
/// the verified claims to what Foundation reads from the payload.
private func check(_ token: String, payload: Data?) {
    let verifier = TrustedSigner.shared.verifier
    let signature = token.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    do {
        let verified = try verifier.verifyWithoutCache(token)
        if let payload { requireFoundationAgrees(with: verified.claims, payload: payload) }
        require(verified.keyID == TrustedSigner.keyID, "a token passed with another key id")
    } catch {
        require(signature.utf8.count < 16 || !quotes(error.description, signature), "the refusal quotes the signature")
    }
}

/// Foundation reads the same claims from `payload` as the verifier did.
private func requireFoundationAgrees(with claims: FleetEngineClaims, payload: Data) {
    guard let object = FoundationJSON.object(of: payload) else {
        return require(false, "the verifier took a payload Foundation cannot read")
    }
    require(FoundationJSON.string(object["iss"]) == claims.issuer, "iss differs from Foundation's")
    require(FoundationJSON.string(object["sub"]) == claims.subject, "sub differs from Foundation's")
    let audiences =
        (object["aud"] as? [Any])?.compactMap(FoundationJSON.string)
        ?? FoundationJSON.string(object["aud"]).map { [$0] }
    require(audiences?.contains(claims.audience) == true, "aud differs from Foundation's")
    require(
        FoundationJSON.number(object["iat"]).map { Int64($0.rounded(.down)) } == claims.issuedAt,
        "iat differs from Foundation's")
    require(
        FoundationJSON.number(object["exp"]).map { Int64($0.rounded(.down)) } == claims.expiresAt,
        "exp differs from Foundation's")
    let authorization = object["authorization"] as? [String: Any] ?? [:]
    let named = Dictionary(claims.authorization.namedIDs.map { ($0.claim, $0.id) }) { first, _ in first }
    for claim in ["vehicleid", "tripid", "deliveryvehicleid", "taskid", "trackingid"] {
        require(
            FoundationJSON.string(authorization[claim]) == named[claim],
            "authorization.\(claim) differs from Foundation's")
    }
    let taskIDs = (authorization["taskids"] as? [Any])?.compactMap(FoundationJSON.string)
    require(taskIDs == claims.authorization.taskIDs, "authorization.taskids differs from Foundation's")
}

/// The one account the fuzzed verifier trusts, its key and a clock fixed inside the seed
/// tokens' lifetime (iat 1800000000, exp 1800003600).
private final class TrustedSigner: Sendable {
    static let shared = TrustedSigner()
    static let email = "fuzz@fuzz-project.iam.gserviceaccount.com"
    static let keyID = "fuzz-key"
    static let validPayload = Data(
        #"{"iss":"\#(email)","sub":"\#(email)","aud":"https://fleetengine.googleapis.com/","iat":1800000000,"exp":1800003600,"authorization":{"vehicleid":"v1"}}"#
            .utf8)

    let header = Data(#"{"alg":"RS256","typ":"JWT","kid":"\#(keyID)"}"#.utf8)
    let verifier: TokenVerifier
    private let signer: RS256Signer

    private init() {
        let key = try! RSAPrivateKey.generate()
        let account = TrustedServiceAccount(
            email: Self.email, role: .driverSDKUser, publicKeys: [Self.keyID: key.publicKey])
        verifier = TokenVerifier(trusting: [account], now: { Date(timeIntervalSince1970: 1_800_000_100) })
        signer = RS256Signer(key.backing)!
    }

    /// A compact token of `header` and `payload`, signed with the trusted key.
    func token(header: Data, payload: Data) -> String {
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = signer.signature(for: SHA256.hash(data: Data(signingInput.utf8)))!
        return signingInput + "." + Base64URL.encode(signature)
    }
}
