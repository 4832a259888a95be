/// What an intent does, for a person — App Intents' `IntentDescription`.
public struct IntentDescription: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The description.
    public var descriptionText: LocalizedStringResource
    /// The category it is listed under.
    public var categoryName: LocalizedStringResource?
    /// Words it is found by.
    public var searchKeywords: [LocalizedStringResource]

    /// A description; the category and keywords are kept, but nothing on Linux lists intents.
    public init(_ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
                searchKeywords: [LocalizedStringResource] = []) {
        self.descriptionText = descriptionText
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
    }

    /// A description from a string literal.
    public init(stringLiteral value: String) {
        self.init(LocalizedStringResource(value))
    }
}
