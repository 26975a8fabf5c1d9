#ifndef PRICECAM_TESSERACT_HANDOFF_H
#define PRICECAM_TESSERACT_HANDOFF_H

/// How many images Tesseract handed to its LSTM through the fast PNG path so far
/// (0 when the executable does not export `pixWriteMem`, see handoff.c).
unsigned long pricecam_fastHandoffCount(void);

/// How many engine loads skipped Tesseract's universal ambigs table (ambigs.c; 0 when the
/// executable does not export its LoadUniversal).
unsigned long pricecam_universalAmbigsSkipped(void);

#endif
