/// Grandfather's version, recorded in every run.
public enum ToolVersion {
    public static let current = "0.1.0"
}
