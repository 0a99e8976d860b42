#include <math.h>
#include <stddef.h>
#include "../include/svc_plugin.h"
#include "notify.h"

SVC_PLUGIN("notify", "1.0.0")

SVC_EXPORT int32_t notify_bucket_take(double *tokens, double *stamp_ms, double now_ms, double per_minute, double burst, int32_t take) {
  if (tokens == NULL || stamp_ms == NULL) return -1;
  if (!isfinite(*tokens) || !isfinite(*stamp_ms) || !isfinite(now_ms) || !isfinite(per_minute) || !isfinite(burst)) return -1;
  if (per_minute < 0 || burst < 0 || *tokens < 0) return -1;
  double level = *tokens > burst ? burst : *tokens;
  if (now_ms > *stamp_ms) {
    level += (now_ms - *stamp_ms) * per_minute / 60000.0;
    if (level > burst) level = burst;
    *stamp_ms = now_ms;
  }
  int32_t ok = level >= 1.0 ? 1 : 0;
  if (ok && take) level -= 1.0;
  *tokens = level;
  return ok;
}

/* Matches one bracket class at *p against c; advances *p past the class. -1: malformed class. */
static int match_class(const char **p, char c) {
  const char *s = *p + 1;
  int negate = 0, hit = 0;
  if (*s == '!' || *s == '^') {
    negate = 1;
    s++;
  }
  const char *first = s;
  while (*s != '\0' && (*s != ']' || s == first)) {
    char lo = *s, hi = *s;
    if (s[1] == '-' && s[2] != '\0' && s[2] != ']') {
      hi = s[2];
      s += 2;
    }
    if (c >= lo && c <= hi) hit = 1;
    s++;
  }
  if (*s != ']') return -1;
  *p = s + 1;
  return hit != negate;
}

SVC_EXPORT int32_t notify_glob_match(const char *pattern, const char *name) {
  if (pattern == NULL || name == NULL) return -1;
  const char *p = pattern, *n = name;
  const char *star_p = NULL, *star_n = NULL;
  while (*n != '\0') {
    if (*p == '*') {
      star_p = ++p;
      star_n = n;
      continue;
    }
    if (*p == '[') {
      const char *q = p;
      int r = match_class(&q, *n);
      if (r == 1) {
        p = q;
        n++;
        continue;
      }
      if (r < 0 && *n == '[') { /* a lone '[' is a literal */
        p++;
        n++;
        continue;
      }
    } else if (*p == '\\' && p[1] != '\0') {
      if (p[1] == *n) {
        p += 2;
        n++;
        continue;
      }
    } else if (*p != '\0' && (*p == '?' || *p == *n)) {
      p++;
      n++;
      continue;
    }
    if (star_p == NULL) return 0;
    p = star_p; /* backtrack: the last star takes one more character */
    n = ++star_n;
  }
  while (*p == '*') p++;
  return *p == '\0';
}
