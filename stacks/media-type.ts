import { unsupportedMedia } from '../state/errors.js';
import type { DocumentFormat } from './document.js';

/**
 * The format of a stack body from its Content-Type: JSON when omitted (or curl's form default),
 * TOML for application/toml and text/toml, YAML for application/yaml, application/x-yaml, text/yaml.
 */
export function formatFromContentType(contentType: string): DocumentFormat {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  switch (type) {
    case '':
    case 'application/json':
    case 'application/x-www-form-urlencoded':
      return 'json';
    case 'application/toml':
    case 'text/toml':
      return 'toml';
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
    case 'text/x-yaml':
      return 'yaml';
    default:
      throw unsupportedMedia(`Content-Type: expected application/json, application/toml or application/yaml, got '${contentType}'`);
  }
}

/** The Content-Type a client sends for a format. */
export function contentTypeOf(format: DocumentFormat): string {
  return format === 'json' ? 'application/json' : format === 'toml' ? 'application/toml' : 'application/yaml';
}
