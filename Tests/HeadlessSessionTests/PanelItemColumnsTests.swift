import Testing
@testable import HeadlessSession

// PanelItemColumns.swift: a panel item's icon, the gap, its label, and whatever else is between.
@Suite struct PanelItemColumnsTests {
    typealias P = ScreenPixelsShapesTests

    @Test func theIconAloneBeforeTheLabelWhichEndsAtTheNextItem() {
        //                     icon      label (two words)        next item
        let strip = P.picture("..###.....##.#...##.................###",
                              "..#.#.....##.#...##.................###")
        let columns = PanelItemColumns(strip: strip, labelStart: 10, strokeGap: 1, itemGap: 15)
        #expect(columns.beforeLabel == [2..<5] && columns.icon == 2..<5)
        #expect(columns.label == 10..<19, "the words' gap of 3 joined, the next item's of 17 not")
    }

    @Test func aBoxBeforeTheLabelsFirstLetterIsASecondRunAndNoIconIsNone() {
        // A box where a font lacks a glyph: light columns between the icon and the first letter.
        let tofu = P.picture("..###..####...##.#",
                             "..#.#..#..#...##.#")
        let columns = PanelItemColumns(strip: tofu, labelStart: 14, strokeGap: 1)
        #expect(columns.beforeLabel == [2..<5, 7..<11] && columns.icon == nil)
        let bare = PanelItemColumns(strip: P.picture("..........##.#"), labelStart: 10)
        #expect(bare.beforeLabel.isEmpty && bare.icon == nil && bare.label == 10..<14)
        #expect(PanelItemColumns(strip: P.picture("..###....."), labelStart: 8).label == nil)
        #expect(PanelItemColumns(strip: P.picture("###"), labelStart: 9).label == nil, "a first letter past the strip's end")
    }

    @Test func theFirstLettersEdgeAColumnBeforeWhereOCRPutItIsNotBeforeTheLabel() {
        let columns = PanelItemColumns(strip: P.picture("##........+#"), labelStart: 11, strokeGap: 1)
        #expect(columns.beforeLabel == [0..<2])
    }
}
