import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerActions } from './actions.js';
import { registerAddUpdate } from './add-update.js';
import { registerCompletion } from './completion.js';
import { registerEvents } from './events.js';
import { registerExport } from './export.js';
import { registerImport } from './import.js';
import { registerInfo } from './info.js';
import { registerList } from './list.js';
import { registerLogin } from './login.js';
import { registerLogs } from './logs.js';
import { registerOta } from './ota.js';
import { registerStack } from './stack.js';
import { registerStorage } from './storage.js';
import { registerUi } from './ui.js';
import { registerAudit } from './audit.js';
import { registerAuth } from './auth.js';
import { registerLicense } from './license.js';
import { registerPlugins } from './plugins.js';
import { registerToken } from './token.js';
import { registerStatus } from './status.js';
import { registerDaemon } from './daemon.js';

/** Every `svc` subcommand, one file each; add new commands here. */
export function registerCommands(program: Command, ctx: CliContext): void {
  registerList(program, ctx);
  registerInfo(program, ctx);
  registerStatus(program, ctx);
  registerAddUpdate(program, ctx);
  registerActions(program, ctx);
  registerLogs(program, ctx);
  registerDaemon(program, ctx);
  registerLogin(program, ctx);
  registerEvents(program, ctx);
  registerStack(program, ctx);
  registerExport(program, ctx);
  registerImport(program, ctx);
  registerOta(program, ctx);
  registerStorage(program, ctx);
  registerUi(program, ctx);
  registerToken(program, ctx);
  registerAuth(program, ctx);
  registerAudit(program, ctx);
  registerLicense(program, ctx);
  registerPlugins(program, ctx);
  registerCompletion(program, ctx);
}
