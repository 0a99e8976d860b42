/* Drives notify.so's C code under AddressSanitizer and UBSan (test/unit/plugins/notify/asan.test.ts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../plugins/notify/notify.h"

static int failures = 0;

static void expect(int got, int want, const char *what) {
  if (got != want) {
    fprintf(stderr, "FAIL %s: got %d, want %d\n", what, got, want);
    failures++;
  }
}

/* Each pattern and name in its own exact-size heap block, so a read past the end is caught. */
static int glob(const char *pattern, const char *name) {
  char *p = malloc(strlen(pattern) + 1), *n = malloc(strlen(name) + 1);
  strcpy(p, pattern);
  strcpy(n, name);
  int r = notify_glob_match(p, n);
  free(p);
  free(n);
  return r;
}

int main(void) {
  expect(glob("api-*", "api-eu"), 1, "star");
  expect(glob("a*b*c", "axxbyy"), 0, "backtrack");
  expect(glob("[", "["), 1, "lone bracket");
  expect(glob("[a-", "b"), 0, "unterminated class");
  expect(glob("[!", "x"), 0, "unterminated negated class");
  expect(glob("\\", "\\"), 1, "a trailing backslash is a literal");
  expect(glob("x\\", "x"), 0, "trailing backslash after text");
  expect(glob("**?", ""), 0, "stars and one char on empty");
  expect(glob("*[]]*", "a]b"), 1, "bracket in class");
  expect(notify_glob_match(NULL, "x"), -1, "NULL pattern");
  /* Every short pattern over a small alphabet against every short name: no crash, no overread. */
  const char *alphabet = "a*?[]!-\\";
  char pattern[5], name[4];
  for (int len = 0; len <= 4; len++) {
    int total = 1;
    for (int i = 0; i < len; i++) total *= 8;
    for (int k = 0; k < total; k++) {
      int v = k;
      for (int i = 0; i < len; i++, v /= 8) pattern[i] = alphabet[v % 8];
      pattern[len] = '\0';
      for (int m = 0; m < 27; m++) {
        int w = m, nl = 0;
        for (; nl < 3 && w > 0; nl++, w /= 3) name[nl] = "a]-"[w % 3];
        name[nl] = '\0';
        int r = glob(pattern, name);
        if (r != 0 && r != 1) expect(r, 0, "result range");
      }
    }
  }
  double tokens = 3, stamp = 0;
  expect(notify_bucket_take(&tokens, &stamp, 0, 6, 3, 1), 1, "bucket take");
  expect(notify_bucket_take(NULL, &stamp, 0, 6, 3, 1), -1, "bucket NULL");
  tokens = 1.0 / 0.0;
  expect(notify_bucket_take(&tokens, &stamp, 0, 6, 3, 1), -1, "bucket infinite");
  if (failures) return 1;
  puts("ok");
  return 0;
}
