/// A reference that closures capture and call through without retaining and releasing it.
///
/// A per-customer pass calls into one object (a run's per-customer rules) several times per
/// customer; each closure that captured it strongly retained and released it, on a counter
/// the other core's jobs touch too. Whoever makes an `Unretained` keeps the object alive for
/// as long as it is used (`withExtendedLifetime`).
public struct Unretained<Object: AnyObject> {
    public unowned(unsafe) let object: Object

    public init(_ object: Object) {
        self.object = object
    }
}
