/// The version of Tocsin, shown by `tocsin --version` and `tocsind --version`.
public enum TocsinVersion {
    /// The release, as `major.minor.patch`.
    public static let string = "0.1.0"
}
