/// Decides which source reads a file, from its content, not its name (SPEC §8.1).
enum InputRecognizer {
    /// Recognises `path`: the first registered source that claims it reads it.
    static func recognize(path: String, mapping: Mapping? = nil) throws(GrandfatherError) -> RecognizedInput {
        var file = try FilePeek(path: path, mapping: mapping)
        // A file of blanks is nobody's: say so, rather than let each source fail on it.
        while file.firstNonBlank == nil {
            guard try file.readMore() else {
                throw .input(file: path, line: nil, message: "empty file: no header or record to recognise")
            }
        }
        for source in InputSources.registered {
            if let input = try source.recognize(&file) { return input }
        }
        throw .input(file: path, line: nil, message: InputDiagnosis.describe(&file))
    }
}
