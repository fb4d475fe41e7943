/* FRAME ONLY: replaced by the issue that builds 'reach'. */
#include <stdio.h>

#include "cli.h"

int wm_cmd_reach(int argc, char **argv) {
  static const wm_optspec spec[] = {{NULL, NULL, NULL}};
  wm_cli cli;
  wm_error err;
  if (wm_cli_parse(&cli, "reach", "[options]", "(not built yet)", spec, 0, 4, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  fprintf(stderr, "warpmatch: 'reach' is not built yet\n");
  return WM_EUSAGE;
}
