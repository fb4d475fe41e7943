/* What a program around the library needs of the library's own state
 * (warpmatch.h, "the program around the library"): the progress line's
 * choice and the temporaries to remove on a signal live in base/, of which
 * the shared library keeps its own copy, which only these calls reach. */
#include "api_internal.h"
#include "base.h"

void warpmatch_set_progress(int show) { wm_progress_choose(!show); }

void warpmatch_remove_temporaries(void) { wm_outfile_remove_all(); }
