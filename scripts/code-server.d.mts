// Types of scripts/code-server.mjs for the TypeScript e2e harness.
import type { ChildProcess } from 'node:child_process';

export const CODE_SERVER_VERSION: string;
export const toolsDir: string;
export const entryScript: string;
export function isInstalled(): boolean;
export function installCodeServer(): string;
export function installExtension(vsix: string, extensionsDir: string): void;
export function freePort(): Promise<number>;
export interface CodeServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
  output(): string;
}
export function startCodeServer(options: {
  folder: string;
  userDataDir: string;
  extensionsDir: string;
  port?: number;
  trust?: boolean;
  env?: Record<string, string>;
  log?: (text: string) => void;
}): Promise<CodeServer>;
export function stopProcessGroup(child: ChildProcess): Promise<void>;
