/* `motifs --random N`: motif significance against degree-preserving random
 * graphs (cmd_motifs_random.c), a client of warpmatch_motif_significance. */
#ifndef WM_MOTIFS_RANDOM_H
#define WM_MOTIFS_RANDOM_H

#include "cli.h"

#define WM_MOTIFS_RANDOM_OPTSPEC                                                                        \
  {"random", "N", "significance: also count N random graphs of the same degrees (2-100000); per class\n" \
                  "the random mean, sd, z-score and p-values"},                                          \
  {"seed", "S", "--random: the random graphs' seed (default 1; the same seed, the same answer)"},        \
  {"swaps-per-edge", "X", "--random: switch: attempted swaps per edge; curveball: trade rounds (default 10)"}, \
  {"csv", "F", "--random: also write the table as CSV to F"}

/* The --random options over *o (o->graphs 0: no --random).  *count_method
 * count->count.method is --method's index in
 * auto|formula|enumerate|switch|curveball: the last two choose the
 * randomisation and leave the count's method auto.  The counts take the
 * rest of *count (device, relabel, GPU tuning), which must outlive o. */
int wm_motifs_random_options(const wm_cli *cli, warpmatch_match_options *count, warpmatch_significance_options *o,
                             wm_error *err);
/* Runs it and prints the table (text, --json) and writes --csv. */
int wm_motifs_random(const wm_cli *cli, warpmatch_context *ctx, const warpmatch_graph *g, unsigned k,
                     const warpmatch_significance_options *o, double load_seconds, wm_error *err);

#endif
