/**
 * The stack parsing and validation the CLI needs, gathered so commands can load them on first
 * use: they pull in yaml, smol-toml and ajv, ~85 ms of start-up that `svc list` should not pay.
 */
export { checkStackFile, loadCheckedStack } from '../../stacks/check.js';
export { formatFromName, parseDocumentText, type DocumentFormat } from '../../stacks/document.js';
export { loadStackFile } from '../../stacks/load.js';
export { contentTypeOf } from '../../stacks/media-type.js';
export { stringifyStack } from '../../stacks/serialize.js';
export { locateAnswer, validateServices } from '../../stacks/validate-stack.js';
