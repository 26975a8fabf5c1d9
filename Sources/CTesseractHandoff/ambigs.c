// Tesseract parses its built-in "universal ambigs" table (a few thousand pairs of
// characters the legacy classifier confuses, universalambigs.cpp) on every engine load:
// UnicharAmbigs::LoadUniversal, whose sorted-list inserts are about half of a model's load
// time (perf: ELIST_ITERATOR::forward, ELIST::add_sorted_and_find; 45-60 ms of ~100 ms for
// eng, jpn or the price model, 3-4 loads per worker). Only the legacy engine reads that
// table (the adaptive classifier, the segmentation search's dangerous-ambiguity check);
// pricecam runs the LSTM engine alone, so the table is left empty here.
//
// This definition takes the place of libtesseract's own when the executable exports it
// (`--export-dynamic-symbol` in Package.swift); libtesseract calls it through its PLT
// (Tesseract::init_tesseract_lang_data). PRICECAM_UNIVERSAL_AMBIGS=load calls Tesseract's
// own (for measuring). If a libtesseract ever calls it directly, or under another name,
// its own runs and nothing else changes.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "handoff.h"

// void tesseract::UnicharAmbigs::LoadUniversal(const UNICHARSET &encoder_set, UNICHARSET *unicharset)
#define LOAD_UNIVERSAL _ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_
#define STR2(x) #x
#define STR(x) STR2(x)

typedef void (*load_universal_fn)(void *self, const void *encoder_set, void *unicharset);

static atomic_ulong skipped = 0;

void LOAD_UNIVERSAL(void *self, const void *encoder_set, void *unicharset);
void LOAD_UNIVERSAL(void *self, const void *encoder_set, void *unicharset) {
    const char *v = getenv("PRICECAM_UNIVERSAL_AMBIGS");
    if (v != NULL && strcmp(v, "load") == 0) {
        load_universal_fn real = (load_universal_fn)dlsym(RTLD_NEXT, STR(LOAD_UNIVERSAL));
        if (real != NULL) real(self, encoder_set, unicharset);
        return;
    }
    atomic_fetch_add(&skipped, 1);
}

unsigned long pricecam_universalAmbigsSkipped(void) { return atomic_load(&skipped); }
