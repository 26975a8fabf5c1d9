#ifndef PRICECAM_TESSERACT_HANDOFF_H
#define PRICECAM_TESSERACT_HANDOFF_H

/// How many images Tesseract handed to its LSTM through the fast PNG path so far
/// (0 when the executable does not export `pixWriteMem`, see handoff.c).
unsigned long pricecam_fastHandoffCount(void);

#endif
