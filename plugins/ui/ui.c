#include "ui.h"

#include <string.h>

SVC_PLUGIN("ui", "1.0.0")

/*
 * Version 1's panels: token management and the audit log for admins (the security plugin's
 * routes), notify channels for operators (the notify plugin's). A panel appears only when the
 * license grants both `ui` and the panel's own feature, and only to its role and above.
 */
static const char PANELS[] =
    "["
    "{\"id\":\"tokens\",\"title\":\"Tokens\",\"min_role\":\"admin\",\"feature\":\"access_tokens\"},"
    "{\"id\":\"audit\",\"title\":\"Audit log\",\"min_role\":\"admin\",\"feature\":\"audit_log\"},"
    "{\"id\":\"notify\",\"title\":\"Notify\",\"min_role\":\"operator\",\"feature\":\"notify_channels\"}"
    "]";

SVC_EXPORT int32_t svc_ui_panels(uint8_t *out, uint32_t cap) {
  const uint32_t len = (uint32_t)(sizeof PANELS - 1);
  if (cap < len || out == NULL) return -(int32_t)len;
  memcpy(out, PANELS, len);
  return (int32_t)len;
}
