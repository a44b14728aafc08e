import GrandfatherEngine

/// Where the library meets the engine: the one place an `EngineError` becomes a
/// `GrandfatherError`. The engine's operations that can fail are called through the typed
/// adapters beside this file (`Disk`, `InputFile`, `Records`, `Ranges`, `Spills`), each a
/// forward through `converting`; `scripts/fence` fails when an engine failure is converted
/// anywhere else.
enum EngineEdge {
    /// Runs engine work; its failure becomes the run's, case for case and word for word.
    /// Typed: nothing but an `EngineError` can come out of `work`, so nothing else is converted.
    static func converting<Value>(_ work: () throws(EngineError) -> Value) throws(GrandfatherError) -> Value {
        do {
            return try work()
        } catch {
            throw GrandfatherError(error)
        }
    }
}

extension GrandfatherError: EngineFailure {
    /// The engine's failure as the run's: the same case and the same words, so a message
    /// reads alike wherever it was raised. The engine's generic machinery (`ResultSlots`)
    /// raises its failures through it; the library, through `EngineEdge.converting`.
    public init(_ failure: EngineError) {
        switch failure {
        case .usage(let message): self = .usage(message)
        case .input(let file, let line, let message): self = .input(file: file, line: line, message: message)
        case .io(let path, let message): self = .io(path: path, message: message)
        case .internal(let message): self = .internal(message)
        }
    }
}
