import OCR
import Testing

@Suite("--accuracy: the measurement switches")
struct AccuracySwitchTests {
    @Test func noSwitchesIsEveryStepOn() throws {
        #expect(try AccuracyOptions(switches: "") == AccuracyOptions())
        #expect(try AccuracyOptions(switches: " , ") == AccuracyOptions())
    }

    @Test func eachSwitchTurnsItsStepOff() throws {
        let o = try AccuracyOptions(switches: "no-preprocess, no-second-pass,regions-only,large-budget=1.5,region-limit=20")
        #expect(!o.preprocess && !o.secondPass && o.reading == .regions)
        #expect(o.largeImageBudget == 1.5 && o.regionLimit == 20)
        #expect(o.stretch && o.deskew && o.priceModel && o.recognizer)  // the others stay on
        #expect(try !AccuracyOptions(switches: "no-recognizer").recognizer)
        #expect(AccuracyOptions().textArea && o.textArea)
        #expect(try !AccuracyOptions(switches: "no-text-area").textArea)
        #expect(try AccuracyOptions(switches: "reread-sure-rows").rereadSureRows && !AccuracyOptions().rereadSureRows)
        #expect(try AccuracyOptions(switches: "reread-small-rows").rereadSmallRows && !AccuracyOptions().rereadSmallRows)
        #expect(try !AccuracyOptions(switches: "no-row-recognizer").rowRecognizer && AccuracyOptions().rowRecognizer)
        #expect(try !AccuracyOptions(switches: "no-row-glyphs").rowSingleGlyphs && AccuracyOptions().rowSingleGlyphs)
        #expect(try !AccuracyOptions(switches: "no-crop-shadows").cropShadows && AccuracyOptions().cropShadows)
        #expect(try !AccuracyOptions(switches: "no-level-rows").levelRows && AccuracyOptions().levelRows)
        #expect(try !AccuracyOptions(switches: "no-join-pieces").joinPieces && AccuracyOptions().joinPieces)
        #expect(try !AccuracyOptions(switches: "no-blurred-rows").blurredRows && AccuracyOptions().blurredRows)
        #expect(try !AccuracyOptions(switches: "no-blurred-print").blurredPrint && AccuracyOptions().blurredPrint)
        #expect(try AccuracyOptions(switches: "tesseract-invert").tesseractInverts && !AccuracyOptions().tesseractInverts)
        // The reader's crops follow the switch, set at first and changed later.
        let reader = PageReader(
            engine: try OCREngine(configuration: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil))),
            judge: RereadChoiceTests.DigitJudge(), options: try AccuracyOptions(switches: "no-crop-shadows"))
        #expect(!reader.regionReader.flattenShadows)
        reader.options = AccuracyOptions()
        #expect(reader.regionReader.flattenShadows)
        #expect(reader.regionReader.blurredEdgeShare == AccuracyOptions().cropBlurredEdgeShare)
        reader.options = try AccuracyOptions(switches: "crop-blur=0")
        #expect(reader.regionReader.blurredEdgeShare == 0)
        #expect(try AccuracyOptions(switches: "crop-blur=0.25").cropBlurredEdgeShare == 0.25)
        #expect(AccuracyOptions().cropBlurredEdgeShare > 0)
        #expect(try !AccuracyOptions(switches: "no-readers-agree").readersAgree && AccuracyOptions().readersAgree)
        #expect(try !AccuracyOptions(switches: "no-recognizer-words").recognizerWords && AccuracyOptions().recognizerWords)
        #expect(try !AccuracyOptions(switches: "no-scene-short-letters").sceneShortLetters && AccuracyOptions().sceneShortLetters)
        #expect(try !AccuracyOptions(switches: "no-sideways").sideways && AccuracyOptions().sideways)
        #expect(try !AccuracyOptions(switches: "no-upside-down").upsideDown && AccuracyOptions().upsideDown)
        #expect(try AccuracyOptions(switches: "page-only").reading == .page)
        // Documents by their boxes in rows unless told otherwise; rows by the detector's boxes.
        #expect(AccuracyOptions().documentReading == .rows && AccuracyOptions().rowGrouping)
        let d = try AccuracyOptions(switches: "documents=page,word-rows")
        #expect(d.documentReading == .page && !d.rowGrouping)
        let g = try AccuracyOptions(switches: "page-glyph=14/30")
        #expect(g.smallGlyph == 14 && g.pageGlyph == 30)
        #expect(try AccuracyOptions(switches: "page-glyph=0/0").smallGlyph == 0)
        #expect(try AccuracyOptions(switches: "blurred-edge=0").blurredEdge == 0)
        #expect(try AccuracyOptions(switches: "document-side=0").documentSide == 0)
        #expect(try AccuracyOptions(switches: "document-side=800").documentSide == 800)
        #expect(AccuracyOptions().documentSide > 0)
        #expect(AccuracyOptions().detectorSide == nil)
        #expect(try AccuracyOptions(switches: "detector-side=2400").detectorSide == 2400)
        #expect(AccuracyOptions().coarsePageSide > 0 && AccuracyOptions().coarsePageGlyph > 0)
        let coarse = try AccuracyOptions(switches: "coarse-page=960/14")
        #expect(coarse.coarsePageSide == 960 && coarse.coarsePageGlyph == 14)
        #expect(try AccuracyOptions(switches: "coarse-page=0/0").coarsePageSide == 0)
        #expect(try AccuracyOptions(switches: "rows-only").reading == .rows)
        // A file's scene has every unsure region read again unless bounded; frames, rows and pages 16.
        #expect(AccuracyOptions().sceneRereads == nil && AccuracyOptions().maxRereads == 16)
        let r = try AccuracyOptions(switches: "scene-rereads=16,rereads=8")
        #expect(r.sceneRereads == 16 && r.maxRereads == 8)
    }

    @Test(arguments: ["bogus", "no-preprocss", "regions-limit=3"])
    func anUnknownSwitchIsNamedWithTheSwitches(_ list: String) {
        do {
            _ = try AccuracyOptions(switches: list)
            Issue.record("\(list) was accepted")
        } catch {
            #expect(error.description.contains("unknown accuracy switch '\(list)'") && error.description.contains("no-second-pass"))
        }
    }

    @Test(arguments: [
        ("region-limit=0", "region-limit=N"), ("large-budget=-1", "large-budget=SECONDS"), ("small-budget=x", "small-budget=SECONDS"),
        ("documents=regions", "documents=page|rows"), ("documents=", "documents=page|rows"), ("page-glyph=12", "page-glyph=MIN/TARGET"),
        ("page-glyph=a/b", "page-glyph=MIN/TARGET"), ("page-glyph=-1/20", "page-glyph=MIN/TARGET"), ("blurred-edge=x", "blurred-edge=PX"),
        ("document-side=-1", "document-side=PX"), ("document-side=x", "document-side=PX"), ("detector-side=0", "detector-side=PX"),
        ("detector-side=x", "detector-side=PX"), ("scene-rereads=-1", "scene-rereads=N"), ("rereads=x", "rereads=N"),
        ("small-text", "small-text=PX"), ("coarse-page=800", "coarse-page=SIDE/GLYPH"), ("coarse-page=-1/12", "coarse-page=SIDE/GLYPH"),
        ("coarse-page=800/x", "coarse-page=SIDE/GLYPH"), ("crop-blur=x", "crop-blur=SHARE"), ("crop-blur=-0.1", "crop-blur=SHARE"),
    ])
    func aBadValueIsNamedWithWhatTheSwitchTakes(_ list: String, _ form: String) {
        do {
            _ = try AccuracyOptions(switches: list)
            Issue.record("\(list) was accepted")
        } catch {
            #expect(error.description == "bad value in accuracy switch '\(list)': it takes \(form)")
        }
    }
}
