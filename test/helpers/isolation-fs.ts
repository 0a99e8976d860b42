import { pluginSpec } from '../../plugins/host/catalog.js';
import { openPluginLibrary } from '../../plugins/host/open-library.js';
import { IsolationNative } from '../../plugins/isolation/native.js';
import { ISOLATION_SO } from './native.js';

/** The real isolation.so (as built), loaded in the test process. */
export function isolationNative(): IsolationNative {
  return new IsolationNative(openPluginLibrary(ISOLATION_SO, pluginSpec('isolation')!));
}
