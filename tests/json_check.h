/* A strict little JSON syntax checker for the suites that test --json
 * output (objects, arrays, strings, numbers, true/false/null). */
#ifndef WM_JSON_CHECK_H
#define WM_JSON_CHECK_H

#include <criterion/criterion.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The unsigned number after "key": in a --json line (asserts the key is there). */
static inline uint64_t json_u64(const char *json, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(json, pat);
  cr_assert_not_null(p, "no key %s in %s", key, json);
  return strtoull(p + strlen(pat), NULL, 10);
}

/* The number after "key": (asserts the key is there). */
static inline double json_double(const char *json, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(json, pat);
  cr_assert_not_null(p, "no key %s in %s", key, json);
  return strtod(p + strlen(pat), NULL);
}

static const char *jc_value(const char *s, int depth);

static const char *jc_ws(const char *s) {
  while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') s++;
  return s;
}

static const char *jc_string(const char *s) {
  if (*s != '"') return NULL;
  for (s++; *s && *s != '"'; s++) {
    if ((unsigned char)*s < 0x20) return NULL;
    if (*s == '\\') {
      s++;
      if (*s == 'u') {
        for (int i = 1; i <= 4; i++)
          if (!isxdigit((unsigned char)s[i])) return NULL;
        s += 4;
      } else if (!strchr("\"\\/bfnrt", *s) || !*s) {
        return NULL;
      }
    }
  }
  return *s == '"' ? s + 1 : NULL;
}

static const char *jc_number(const char *s) {
  const char *start = s;
  if (*s == '-') s++;
  if (!isdigit((unsigned char)*s)) return NULL;
  if (*s == '0' && isdigit((unsigned char)s[1])) return NULL;
  while (isdigit((unsigned char)*s)) s++;
  if (*s == '.') {
    s++;
    if (!isdigit((unsigned char)*s)) return NULL;
    while (isdigit((unsigned char)*s)) s++;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!isdigit((unsigned char)*s)) return NULL;
    while (isdigit((unsigned char)*s)) s++;
  }
  return s > start ? s : NULL;
}

static const char *jc_container(const char *s, int depth, char close, int keyed) {
  s = jc_ws(s + 1);
  if (*s == close) return s + 1;
  for (;;) {
    if (keyed) {
      s = jc_string(jc_ws(s));
      if (!s) return NULL;
      s = jc_ws(s);
      if (*s++ != ':') return NULL;
    }
    s = jc_value(s, depth + 1);
    if (!s) return NULL;
    s = jc_ws(s);
    if (*s == close) return s + 1;
    if (*s++ != ',') return NULL;
  }
}

static const char *jc_value(const char *s, int depth) {
  if (depth > 64) return NULL;
  s = jc_ws(s);
  if (*s == '{') return jc_container(s, depth, '}', 1);
  if (*s == '[') return jc_container(s, depth, ']', 0);
  if (*s == '"') return jc_string(s);
  if (!strncmp(s, "true", 4)) return s + 4;
  if (!strncmp(s, "false", 5)) return s + 5;
  if (!strncmp(s, "null", 4)) return s + 4;
  return jc_number(s);
}

/* 1 when text is exactly one JSON object (plus whitespace). */
static inline int json_valid_object(const char *text) {
  const char *s = jc_ws(text);
  if (*s != '{') return 0;
  s = jc_value(s, 0);
  return s && *jc_ws(s) == '\0';
}

#endif
