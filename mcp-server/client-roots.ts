// Where a path an agent gives points, and whether it may be opened. A path is a `file://` URI, an
// absolute path, `~` or `~/…` (the server's home), or relative to the client's first root (without
// roots: to the server's working folder). The client's roots (roots/list, asked again on
// notifications/roots/list_changed) bound what may be opened, and the server's own flags are the
// floor: `--root DIR` bounds every open whatever the client says, and `--program-root` bounds the
// programs machin may run; the client's roots only narrow both. Bounds are checked on real paths,
// so a link inside a root to a file outside it is outside.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecordingError } from '../replay-engine/model/errors';

export class ClientRoots {
  /** The client's roots as folders, in its order; null when it gave none (or cannot). */
  private client: string[] | null = null;
  /** The roots/list under way, which every path waits for (a call right after initialize). */
  asking: Promise<void> = Promise.resolve();

  constructor(
    /** `--root` folders: every recording must be in one of them (none: no bound from the server). */
    private readonly serverRoots: string[] = [],
    /** `--program-root` folders (none: the trace's own folder, the engine's rule). */
    private readonly programFloor: string[] | undefined = undefined,
    private readonly cwd = process.cwd(),
  ) {}

  /** The client's answer to roots/list (file:// URIs; others are ignored, they name no folder). */
  setClientRoots(uris: string[] | null): void {
    if (uris === null) {
      this.client = null;
      return;
    }
    const folders: string[] = [];
    for (const u of uris) {
      try {
        if (u.startsWith('file:')) folders.push(resolve(fileURLToPath(u)));
      } catch {
        // not a usable file URI: it bounds nothing
      }
    }
    this.client = folders;
  }

  get clientRoots(): string[] | null {
    return this.client;
  }

  /** The file a path names, as the tools take it. Throws a usage error for a URI of another scheme. */
  resolvePath(path: string): string {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !/^[a-z]:[\\/]/i.test(path)) {
      if (!path.toLowerCase().startsWith('file://')) {
        throw new RecordingError('usage', `${path}: only file:// URIs name recordings here (or give a path)`);
      }
      try {
        return resolve(fileURLToPath(path));
      } catch (err) {
        throw new RecordingError('usage', `${path}: not a file URI this server can read: ${(err as Error).message}`);
      }
    }
    if (path === '~') return homedir();
    if (path.startsWith('~/')) return join(homedir(), path.slice(2));
    if (isAbsolute(path)) return resolve(path);
    const base = this.client && this.client.length ? this.client[0] : this.cwd;
    return resolve(base, path);
  }

  /** Throws unless `file` may be opened: inside a server root (when given) and a client root (when given). */
  checkOpen(file: string): void {
    const real = realOf(file);
    if (this.serverRoots.length && !this.serverRoots.some((r) => inside(real, realOf(r)))) {
      throw new RecordingError('usage', `${file}: outside the folders this server may read (--root ${this.serverRoots.join(', --root ')}); open a recording inside them`, { file });
    }
    if (this.client && this.client.length && !this.client.some((r) => inside(real, realOf(r)))) {
      throw new RecordingError('usage', `${file}: outside the client's roots (${this.client.join(', ')}); open a recording inside them, or add its folder to the client's roots`, { file });
    }
  }

  /**
   * Throws unless `program` (open_recording's `program` argument) may run: inside the client's
   * roots, and inside the --program-root folders (without them: the trace's own folder), so an
   * agent cannot name its way past the server's flags.
   */
  checkProgram(program: string, trace: string): void {
    this.checkOpen(program);
    const floor = this.programFloor ?? [dirname(trace)];
    const real = realOf(program);
    if (!floor.some((f) => inside(real, realOf(f)))) {
      throw new RecordingError('usage', `${program}: outside the folders whose programs this server may run (${this.programFloor ? `--program-root ${floor.join(', --program-root ')}` : `the trace's folder ${floor[0]}; start the server with --program-root DIR for others`})`, { file: program });
    }
  }

  /**
   * Where machin may find and run a program: the server's --program-root folders, narrowed to
   * those inside the client's roots (or the client's roots inside them); undefined: the engine's
   * default, the trace's own folder (inside the client's roots, as the trace is).
   */
  programRoots(): string[] | undefined {
    const client = this.client && this.client.length ? this.client : null;
    const floor = this.programFloor;
    if (!client || !floor) return floor;
    const out: string[] = [];
    for (const f of floor) for (const c of client) {
      if (inside(realOf(c), realOf(f))) out.push(c);
      else if (inside(realOf(f), realOf(c))) out.push(f);
    }
    // Nothing in common: no program may run (a folder nobody can have a program in).
    return out.length ? [...new Set(out)] : [join(this.cwd, '\0no-program-root')];
  }
}

function realOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function inside(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
