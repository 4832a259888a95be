// Replaced by the TocsinKit tests.
