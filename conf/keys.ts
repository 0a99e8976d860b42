/**
 * The table of every configuration key: its type, default and bounds. The loader, the default
 * `conf/svc.toml` and `docs/configuration.md` all describe this one table.
 */
import type { GitSourceConfig } from '../stacks/git/source-config.js';

/** `optional-path`: a path, or "" for none. */
export type KeyType = 'string' | 'boolean' | 'integer' | 'path' | 'optional-path';

export interface KeySpec {
  type: KeyType;
  default: string | number | boolean;
  min?: number;
  max?: number;
}

export const CONFIG_KEYS = {
  server: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'integer', default: 9002, min: 0, max: 65535 },
    auth_secret: { type: 'string', default: '' },
    socket_only: { type: 'boolean', default: false },
    socket_path: { type: 'path', default: './run/svcd.sock' },
    enable_docs: { type: 'boolean', default: false },
    max_body_bytes: { type: 'integer', default: 1048576, min: 1024, max: 256 * 1024 * 1024 },
    request_timeout_secs: { type: 'integer', default: 30, min: 1, max: 3600 },
    max_connections: { type: 'integer', default: 256, min: 1, max: 65535 },
  },
  storage: {
    data_dir: { type: 'path', default: './data' },
    log_dir: { type: 'path', default: './logs' },
    events_file: { type: 'path', default: './data/events.db' },
    events_keep_days: { type: 'integer', default: 30, min: 0 },
    log_max_bytes: { type: 'integer', default: 10485760, min: 0 },
    log_keep: { type: 'integer', default: 3, min: 0, max: 100 },
  },
  supervisor: {
    sample_interval_secs: { type: 'integer', default: 5, min: 1, max: 3600 },
    spawner: { type: 'boolean', default: true },
    /** The soft open-files limit programs start with (capped at the hard limit); 0 = svcd's own. */
    limit_nofile: { type: 'integer', default: 1024, min: 0, max: 1073741816 },
  },
  stacks: {
    dir: { type: 'path', default: './stacks' },
    watch: { type: 'boolean', default: true },
    /** This host's name for git sources' `hosts/<host>/` overlays; "" = the OS host name. */
    host: { type: 'string', default: '' },
  },
  ota: {
    max_download_bytes: { type: 'integer', default: 536870912, min: 1 },
    max_extract_bytes: { type: 'integer', default: 1073741824, min: 1 },
    max_attempts: { type: 'integer', default: 5, min: 1, max: 100 },
    ca_file: { type: 'optional-path', default: '' },
  },
  isolation: {
    cgroup_root: { type: 'path', default: '/sys/fs/cgroup' },
  },
  license: {
    key: { type: 'string', default: '' },
    strict: { type: 'boolean', default: false },
    retain_grants_after_expiry: { type: 'boolean', default: false },
    trusted_keys: { type: 'string', default: '' },
  },
} as const satisfies Record<string, Record<string, KeySpec>>;

type Section = typeof CONFIG_KEYS;
type ValueOf<K extends KeySpec> = K['type'] extends 'boolean' ? boolean : K['type'] extends 'integer' ? number : string;

/** The resolved configuration: every key present, every path absolute. */
export type SvcConfig = {
  -readonly [S in keyof Section]: { -readonly [K in keyof Section[S]]: Section[S][K] extends KeySpec ? ValueOf<Section[S][K]> : never };
} & {
  /** The installation root ($SVC_ROOT). */
  root: string;
  /** The config file that was read, or null when none exists (embedded defaults). */
  file: string | null;
  /** `[[stacks.git]]` sources (docs/gitops.md); absent in hand-built configs = none. */
  git?: GitSourceConfig[];
};
