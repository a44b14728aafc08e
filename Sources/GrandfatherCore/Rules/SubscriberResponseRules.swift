import GrandfatherEngine

/// SPEC §9, redeliveries, for RevenueCat's subscriber responses (docs/RevenueCat.md,
/// "Subscriber responses"): which `GET /subscribers` body stands for each
/// `original_app_user_id` of the run.
///
/// A body is RevenueCat's whole view of one subscriber at the moment it answered, so a body
/// fetched later is a later view of the same record, as a later delivery of an export row is
/// (weighed by `updated_at`). Of several bodies of one id, in one file or several:
/// - the one fetched last (the greatest `request_date`) stands; a body without `request_date`
///   is older than any with one;
/// - of bodies fetched at the same instant (or with none), the greater by content: a 64-bit
///   fingerprint of every member of the body (`content(of:)`), whatever the order of its keys,
///   its spacing or the file it is in;
/// - never the one given first. The others are accepted and not used: not their customer,
///   not their purchases, not what RevenueCat shows active in them. One whose content is the
///   standing body's is an exact duplicate; any other is superseded.
///
/// So SPEC §8.7's "the first row of an id wins" does not weigh subscriber responses: a body is
/// no row a team wrote once, but a redelivery of RevenueCat's record. A body that is rejected
/// (it does not read, or its customer's texts do not pass the sink's checks) weighs nothing.
/// Two bodies of two ids that RevenueCat's webhook events merge are two records, each weighed
/// by its own id; their customers then meet in the ledger, where §8.7 holds.
///
/// No SQL twin: `normalize` writes only what the standing bodies give.
enum SubscriberResponseRules {
    /// Where a body is: the file's place among the run's inputs, and the body's among the
    /// file's top-level values.
    struct Place: Hashable, Sendable {
        var file: Int
        var body: Int
    }

    /// What weighing a body needs of it.
    struct Body: Equatable, Sendable {
        var requested: Instant?
        /// `content(of:)` of the whole body.
        var content: UInt64
        var place: Place

        /// Whether this body stands over `other`, a body of the same id: the later fetched,
        /// then the greater by content. Where it was given never decides.
        func standsOver(_ other: Body) -> Bool {
            if requested != other.requested {
                return (requested?.microseconds ?? .min) > (other.requested?.microseconds ?? .min)
            }
            return content > other.content
        }
    }

    /// What becomes of a body once every body of the run is weighed.
    enum Use: Equatable, Sendable {
        /// It stands for its id (or weighs nothing, being rejected): read as it is.
        case stands
        /// Another body of its id, with the same content, stands: an exact duplicate.
        case exactDuplicate
        /// Another body of its id stands: superseded, whole.
        case superseded
    }

    /// An id compared by its exact code points, as the ledger compares ids (SPEC §8.7): Swift's
    /// `String` equality would take two spellings Unicode calls equivalent for one id.
    struct ExactID: Hashable, Sendable {
        var id: String

        static func == (lhs: ExactID, rhs: ExactID) -> Bool { lhs.id.utf8.elementsEqual(rhs.id.utf8) }

        func hash(into hasher: inout Hasher) {
            var bytes = StableHash()
            bytes.combine(id)
            hasher.combine(bytes.value)
        }
    }

    /// The body that stands for each id, weighed one body at a time in any order: a few words
    /// per customer, whatever the bodies' size.
    struct Standing: Sendable {
        private var bodies: [ExactID: Body] = [:]

        /// Weighs `body`, a body of `id`.
        mutating func weigh(_ body: Body, of id: String) {
            let key = ExactID(id: id)
            if let held = bodies[key], !body.standsOver(held) { return }
            bodies[key] = body
        }

        /// What becomes of the body of `id` at `place`, fetched at `requested`; `content` gives
        /// its fingerprint, asked only when another body of the id stands.
        func use(of id: String, at place: Place, requested: Instant?, content: () -> UInt64) -> Use {
            guard let held = bodies[ExactID(id: id)], held.place != place else { return .stands }
            return requested == held.requested && content() == held.content ? .exactDuplicate : .superseded
        }
    }

    /// A 64-bit fingerprint of a JSON value's content: an object's members whatever their
    /// order (each member's fingerprint summed; a key is never repeated: such a value is
    /// rejected), an array's elements in order, numbers as written, strings as their bytes. Two bodies of one id fetched at one instant with different content share
    /// one about once in 2^64 pairs; then they are taken for one content, as two notifications
    /// or verdicts sharing a fingerprint are (docs/Decisions.md).
    static func content(of value: JSONValue) -> UInt64 {
        var hash = StableHash()
        combine(value, into: &hash)
        return hash.value
    }

    private static func combine(_ value: JSONValue, into hash: inout StableHash) {
        switch value {
        case .object(let members):
            hash.combine(1)
            hash.combine(UInt64(members.count))
            var sum: UInt64 = 0
            for member in members {
                var one = StableHash()
                one.combine(member.key)
                combine(member.value, into: &one)
                sum &+= one.value
            }
            hash.combine(sum)
        case .array(let elements):
            hash.combine(2)
            hash.combine(UInt64(elements.count))
            for element in elements { combine(element.value, into: &hash) }
        case .string(let text):
            hash.combine(3)
            hash.combine(text)
        case .number(let text):
            hash.combine(4)
            hash.combine(text)
        case .bool(let flag):
            hash.combine(flag ? 5 : 6)
        case .null:
            hash.combine(7)
        }
    }
}
