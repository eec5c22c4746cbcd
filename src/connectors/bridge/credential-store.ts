// Where the desktop bridge keeps its refresh token (D14): the OS keychain (keychain-store.ts) or,
// where none is reachable, a JSON file readable by its owner only (0600, in a 0700 folder). The access token is never
// written: it lives in memory and is minted again from the refresh token.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StoredSignIn {
  baseUrl: string;
  refreshToken: string;
  sessionId: string;
  deviceName: string;
  tenantId: string;
  /** The service key the bridge minted for its local MCP server (`switchboard bridge mcp`). */
  serviceKey?: string;
  serviceKeyId?: string;
}

/** Where the sign-in is kept: the OS keychain (keychain-store.ts) or this file. */
export interface CredentialStore {
  readonly where: string;
  load(): Promise<StoredSignIn | null>;
  save(v: StoredSignIn): Promise<void>;
  clear(): Promise<void>;
  close?(): void;
}

export class FileCredentialStore implements CredentialStore {
  readonly file: string;
  get where() {
    return this.file;
  }
  constructor(readonly dir: string) {
    this.file = join(dir, 'bridge-signin.json');
  }

  async load(): Promise<StoredSignIn | null> {
    if (!existsSync(this.file)) return null;
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as StoredSignIn;
      return typeof v.refreshToken === 'string' && typeof v.baseUrl === 'string' ? v : null;
    } catch {
      return null; // unreadable: as if signed out; the next sign-in overwrites it
    }
  }

  async save(v: StoredSignIn): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    // Written whole then renamed: a crash never leaves half a token behind.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(v, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  async clear(): Promise<void> {
    rmSync(this.file, { force: true });
  }
}
