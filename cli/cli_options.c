#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int find_spec(const wm_cli *cli, const char *name, size_t len) {
  for (int i = 0; i < cli->nspec; i++)
    if (strlen(cli->spec[i].name) == len && strncmp(cli->spec[i].name, name, len) == 0) return i;
  return -1;
}

void wm_cli_print_help(const wm_cli *cli, FILE *f) {
  fprintf(f, "usage: warpmatch %s %s\n\n%s\n\noptions:\n", cli->command, cli->usage, cli->summary);
  for (int i = 0; i < cli->nspec; i++) {
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", cli->spec[i].name, cli->spec[i].arg ? " " : "",
             cli->spec[i].arg ? cli->spec[i].arg : "");
    /* A long option gets its help on the next line; a help's own line
     * breaks continue under its first line. */
    if (strlen(left) > 24)
      fprintf(f, "  %s\n  %-24s ", left, "");
    else
      fprintf(f, "  %-24s ", left);
    for (const char *h = cli->spec[i].help; *h; h++) {
      fputc(*h, f);
      if (*h == '\n') fprintf(f, "  %-24s ", "");
    }
    fputc('\n', f);
  }
  fprintf(f, "  %-24s %s\n  %-24s %s\n  %-24s %s\n", "--json", "print one JSON object instead of text",
          "--quiet", "no progress line on stderr", "--help", "print this help");
}

int wm_cli_parse(wm_cli *cli, const char *command, const char *usage, const char *summary,
                 const wm_optspec *spec, int min_positional, int max_positional, int argc,
                 char **argv, wm_error *err) {
  memset(cli, 0, sizeof *cli);
  cli->command = command;
  cli->usage = usage;
  cli->summary = summary;
  cli->spec = spec;
  while (spec && spec[cli->nspec].name) cli->nspec++;
  if (cli->nspec > WM_CLI_MAX_OPTS)
    return wm_fail(err, WM_EUSAGE, "%s: too many options declared", command);
  cli->min_positional = min_positional;
  cli->max_positional = max_positional;
  int only_positional = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!only_positional && strcmp(a, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (!only_positional && a[0] == '-' && a[1] == '-') {
      const char *name = a + 2;
      const char *eq = strchr(name, '=');
      size_t len = eq ? (size_t)(eq - name) : strlen(name);
      if (len == 4 && strncmp(name, "help", 4) == 0 && !eq) {
        cli->help = 1;
        wm_cli_print_help(cli, stdout);
        return WM_OK;
      }
      if (len == 4 && strncmp(name, "json", 4) == 0 && !eq) {
        cli->json = 1;
        continue;
      }
      if (len == 5 && strncmp(name, "quiet", 5) == 0 && !eq) {
        cli->quiet = 1;
        continue;
      }
      int k = find_spec(cli, name, len);
      if (k < 0)
        return wm_fail(err, WM_EUSAGE, "%s: unknown option '--%.*s'", command, (int)len, name);
      if (!spec[k].arg) {
        if (eq) return wm_fail(err, WM_EUSAGE, "%s: option '--%s' takes no value", command, spec[k].name);
        cli->value[k] = "1";
      } else if (eq) {
        cli->value[k] = eq + 1;
      } else {
        if (i + 1 >= argc)
          return wm_fail(err, WM_EUSAGE, "%s: option '--%s' expects %s", command, spec[k].name, spec[k].arg);
        cli->value[k] = argv[++i];
      }
      continue;
    }
    if (!only_positional && a[0] == '-' && a[1] != '\0')
      return wm_fail(err, WM_EUSAGE, "%s: unknown option '%s' (options are spelled --name)", command, a);
    if (cli->npositional >= max_positional || cli->npositional >= WM_CLI_MAX_POSITIONAL)
      return wm_fail(err, WM_EUSAGE, "%s: unexpected argument '%s'", command, a);
    cli->positional[cli->npositional++] = a;
  }
  if (cli->npositional < min_positional)
    return wm_fail(err, WM_EUSAGE, "%s: expected %s", command, usage);
  /* Under mpirun rank 0 alone shows it; the program's line (its own copy of
   * base/) and the library's are chosen alike. */
  const int silent = cli->json || cli->quiet || wm_mpi_rank() != 0;
  wm_progress_choose(silent);
  warpmatch_set_progress(!silent);
  return WM_OK;
}

const char *wm_cli_str(const wm_cli *cli, const char *name) {
  int k = find_spec(cli, name, strlen(name));
  return k < 0 ? NULL : cli->value[k];
}

int wm_cli_flag(const wm_cli *cli, const char *name) { return wm_cli_str(cli, name) != NULL; }

int wm_parse_u64(const char *s, uint64_t *out) {
  if (!s || *s < '0' || *s > '9') return 0;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) return 0;
  *out = v;
  return 1;
}

int wm_cli_u64(const wm_cli *cli, const char *name, uint64_t def, uint64_t lo, uint64_t hi,
               uint64_t *out, wm_error *err) {
  const char *s = wm_cli_str(cli, name);
  if (!s) {
    *out = def;
    return WM_OK;
  }
  uint64_t v;
  if (!wm_parse_u64(s, &v) || v < lo || v > hi)
    return wm_fail(err, WM_EUSAGE, "%s: --%s expects a whole number from %llu to %llu, got '%s'",
                   cli->command, name, (unsigned long long)lo, (unsigned long long)hi, s);
  *out = v;
  return WM_OK;
}

int wm_cli_double(const wm_cli *cli, const char *name, double def, double *out, wm_error *err) {
  const char *s = wm_cli_str(cli, name);
  if (!s) {
    *out = def;
    return WM_OK;
  }
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end)
    return wm_fail(err, WM_EUSAGE, "%s: --%s expects a number, got '%s'", cli->command, name, s);
  *out = v;
  return WM_OK;
}

int wm_cli_choice(const wm_cli *cli, const char *name, const char *const *choices, int def,
                  int *out, wm_error *err) {
  const char *s = wm_cli_str(cli, name);
  if (!s) {
    *out = def;
    return WM_OK;
  }
  char list[256] = "";
  for (int i = 0; choices[i]; i++) {
    if (strcmp(s, choices[i]) == 0) {
      *out = i;
      return WM_OK;
    }
    if (i) strncat(list, "|", sizeof list - strlen(list) - 1);
    strncat(list, choices[i], sizeof list - strlen(list) - 1);
  }
  return wm_fail(err, WM_EUSAGE, "%s: --%s expects one of %s, got '%s'", cli->command, name, list, s);
}

/* The subcommand running, whose --help a usage error points at. */
static const char *current_command;

void wm_cli_set_command(const char *name) { current_command = name; }

int wm_cli_report(const wm_error *err) {
  if (wm_mpi_rank() != 0) return err->code; /* rank 0 reports for every rank (wm_mpi_agree) */
  fprintf(stderr, "warpmatch: %s\n", err->msg);
  if (err->code == WM_EUSAGE)
    fprintf(stderr, "(see 'warpmatch %s%s--help')\n", current_command ? current_command : "",
            current_command ? " " : "");
  return err->code;
}
