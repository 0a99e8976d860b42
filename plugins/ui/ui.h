/*
 * The ui plugin (ui.so): the web dashboard's extension panels (docs/web.md, "Extension panels").
 * svcd asks it which panels it brings and serves them at GET /api/v1/system/ui, each unlocked by
 * the license's features; the panels themselves are drawn by the dashboard (web/src/extensions).
 */
#ifndef SVC_UI_H
#define SVC_UI_H

#include "../include/svc_plugin.h"

/*
 * Writes the panels this plugin brings into out, as a JSON array of
 *   {"id": ..., "title": ..., "min_role": "viewer"|"operator"|"admin", "feature": ...}
 * (no terminating NUL) and returns its length in bytes; when cap is too small, writes nothing
 * and returns minus the length needed. out may be NULL when cap is 0.
 */
SVC_EXPORT int32_t svc_ui_panels(uint8_t *out, uint32_t cap);

#endif
