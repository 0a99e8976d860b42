/*
 * notify.so: the storm-suppression arithmetic of the notify plugin (docs/notify.md).
 * Pure functions of their arguments: svcd keeps the state (plugins/notify/native.ts) and the
 * decisions around them (plugins/notify/engine/) and does the delivery in TypeScript.
 */
#ifndef SVC_NOTIFY_H
#define SVC_NOTIFY_H

#include <stdint.h>

/*
 * Token bucket: refills `per_minute` tokens a minute up to `burst`, from the state
 * (*tokens at *stamp_ms) to now_ms, then takes one token if `take` is non-zero and one is there.
 * Writes the new state back. Returns 1 when a token was taken (or, with take = 0, is available),
 * 0 when not, -1 for invalid arguments (NULL pointers, negative or non-finite numbers).
 * A clock that goes backwards refills nothing.
 */
int32_t notify_bucket_take(double *tokens, double *stamp_ms, double now_ms, double per_minute, double burst, int32_t take);

/*
 * Glob match of a whole program name: `*` any run, `?` one character, `[abc]`, `[a-z]` and
 * `[!a]` classes, `\` escapes the next character (a trailing one is a literal; an unterminated
 * `[` is a literal). Returns 1 on match, 0 otherwise, -1 for NULL.
 */
int32_t notify_glob_match(const char *pattern, const char *name);

#endif
