/**
 * What `svc import`, `svc export` and `svc completion` need, gathered so those commands load it
 * on first use (the mappers pull in yaml, smol-toml, ajv and cron-parser, which `svc list` should
 * not pay for at start-up).
 */
export { importFile } from '../../stacks/import/run.js';
export { renderImport } from '../../stacks/import/render.js';
export { formatReportEntry } from '../../stacks/import/report.js';
export { exportSystemd } from '../../stacks/export/systemd/index.js';
export { svcdUnit } from '../../stacks/export/systemd/self-unit.js';
export { exportNomad } from '../../stacks/export/nomad/index.js';
export { formatExportFinding } from '../../stacks/export/types.js';
export { formatFromName, type DocumentFormat } from '../../stacks/document.js';
export { outputSyntax } from './output-syntax.js';
export { stringifyStack } from '../../stacks/serialize.js';
export { redactedFields } from '../../stacks/export/redacted.js';
