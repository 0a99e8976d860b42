/** The plugin ABI this svcd speaks (plugins/include/svc_plugin.h, docs/plugins.md). */
export const PLUGIN_ABI = 1;

/** Every plugin exports these three, whatever its kind. */
export const ABI_EXPORTS = {
  svc_plugin_abi: 'uint32_t svc_plugin_abi(void)',
  svc_plugin_name: 'const char *svc_plugin_name(void)',
  svc_plugin_version: 'const char *svc_plugin_version(void)',
} as const;

/** The file name suffix of a plugin library on this platform. */
export const LIBRARY_SUFFIX = process.platform === 'darwin' ? '.dylib' : '.so';
