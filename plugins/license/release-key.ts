/**
 * The svc project's release public key, compiled in: licenses the project issues verify with it
 * on every installation. Its private half is held by the maintainers, never in this repository.
 * Self-issued licenses verify with keys listed in `[license].trusted_keys` (docs/plugins.md).
 */
export const RELEASE_PUBLIC_KEY = 'svc-license-ed25519 DEeZdeaiFFOWTWCyzkXkedzbMSNYPkrimnZ2FOEeeUE svc-release-2025';
