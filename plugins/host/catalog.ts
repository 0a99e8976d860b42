/**
 * The plugins svcd knows: the license grant each needs and the C functions it must export
 * (koffi prototypes). Adding a plugin is one entry here, one folder `plugins/<name>/` with its C
 * file and `native.json`, and the TypeScript glue that calls its functions.
 */
export interface PluginSpec {
  /** The license grant that allows loading it. */
  grant: string;
  /** Required exports beyond the ABI three: symbol -> koffi prototype. */
  exports: Record<string, string>;
}

export const PLUGIN_CATALOG: Readonly<Record<string, PluginSpec>> = {
  security: {
    grant: 'security',
    exports: {
      authenticate: 'int32_t authenticate(const uint8_t *bearer, uint32_t len, _Out_ int32_t *role, uint8_t *id_out, uint32_t id_cap)',
      svc_security_clear: 'void svc_security_clear(void)',
      svc_security_set_secret: 'int svc_security_set_secret(const uint8_t *digest, int32_t state)',
      svc_security_add_token: 'int svc_security_add_token(const char *id, int32_t role, const uint8_t *digest)',
      svc_security_token_count: 'uint32_t svc_security_token_count(void)',
      svc_security_digest: 'void svc_security_digest(const uint8_t *data, uint32_t len, uint8_t *out)',
      svc_security_equal: 'int32_t svc_security_equal(const uint8_t *a, const uint8_t *b, uint32_t len)',
    },
  },
  notify: {
    grant: 'notify',
    exports: {
      notify_bucket_take: 'int32_t notify_bucket_take(_Inout_ double *tokens, _Inout_ double *stamp_ms, double now_ms, double per_minute, double burst, int32_t take)',
      notify_glob_match: 'int32_t notify_glob_match(const char *pattern, const char *name)',
    },
  },
  // cgroup v2 file operations for resource_limits (plugins/isolation/isolation.h, docs/isolation.md).
  isolation: {
    grant: 'isolation',
    exports: {
      svc_isolation_fs_kind: 'int32_t svc_isolation_fs_kind(const char *path)',
      svc_isolation_writable: 'int32_t svc_isolation_writable(const char *path)',
      svc_isolation_mkdir: 'int32_t svc_isolation_mkdir(const char *path)',
      svc_isolation_write: 'int32_t svc_isolation_write(const char *path, const char *text)',
      svc_isolation_read: 'int32_t svc_isolation_read(const char *path, _Out_ uint8_t *buf, uint32_t cap)',
      svc_isolation_remove: 'int32_t svc_isolation_remove(const char *path)',
    },
  },
  // The web dashboard's extension panels (plugins/ui/ui.h, docs/web.md).
  ui: {
    grant: 'ui',
    exports: {
      svc_ui_panels: 'int32_t svc_ui_panels(_Out_ uint8_t *out, uint32_t cap)',
    },
  },
};

/** The plugin that must load first when a license verifies (spec: Licensed startup requirements). */
export const SECURITY = 'security';
/** The plugin that brings the web dashboard's extension panels. */
export const UI = 'ui';

export function pluginSpec(name: string): PluginSpec | undefined {
  return Object.hasOwn(PLUGIN_CATALOG, name) ? PLUGIN_CATALOG[name] : undefined;
}
