/*
 * The svc plugin ABI (version 1), shared by every plugin under plugins/<name>/.
 *
 * A plugin is a shared library $SVC_ROOT/plugins/<name>.so that exports
 *   uint32_t    svc_plugin_abi(void);      ABI version; svcd refuses any other value
 *   const char *svc_plugin_name(void);     must equal <name>, the file's base name
 *   const char *svc_plugin_version(void);  reported in plugin_versions of GET /api/v1/system/license
 * plus the functions its entry in plugins/host/catalog.ts requires. One line defines the three:
 *
 *   #include "../include/svc_plugin.h"
 *   SVC_PLUGIN("notify", "1.0.0")
 *
 * Builds use -fvisibility=hidden: mark every exported function SVC_EXPORT. Strings returned by
 * the plugin are static; svcd never frees them. docs/plugins.md describes the ABI in full.
 */
#ifndef SVC_PLUGIN_H
#define SVC_PLUGIN_H

#include <stdint.h>

#define SVC_PLUGIN_ABI 1u
#define SVC_EXPORT __attribute__((visibility("default")))

SVC_EXPORT uint32_t svc_plugin_abi(void);
SVC_EXPORT const char *svc_plugin_name(void);
SVC_EXPORT const char *svc_plugin_version(void);

#define SVC_PLUGIN(name, version)                                      \
  SVC_EXPORT uint32_t svc_plugin_abi(void) { return SVC_PLUGIN_ABI; }  \
  SVC_EXPORT const char *svc_plugin_name(void) { return (name); }      \
  SVC_EXPORT const char *svc_plugin_version(void) { return (version); }

#endif
