import Testing

/// Every browser test, one after another: one Chromium at a time, so that the browser adds no
/// more than one busy process to the machine the other suites run on at once.
@Suite(
    "In headless Chromium", .serialized, .enabled(if: browserAvailable, "needs Debian's chromium and chromium-driver"))
enum BrowserSuite {}
