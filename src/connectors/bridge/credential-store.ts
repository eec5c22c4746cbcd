// Where the desktop bridge keeps its refresh token (D14). On this build: a JSON file readable by
// its owner only (0600, in a 0700 folder), the fallback D14 allows where no OS keychain is
// reachable; docs/decisions.md says why the keychain is not used yet. The access token is never
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

export class FileCredentialStore {
  readonly file: string;
  constructor(readonly dir: string) {
    this.file = join(dir, 'bridge-signin.json');
  }

  load(): StoredSignIn | null {
    if (!existsSync(this.file)) return null;
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as StoredSignIn;
      return typeof v.refreshToken === 'string' && typeof v.baseUrl === 'string' ? v : null;
    } catch {
      return null; // unreadable: as if signed out; the next sign-in overwrites it
    }
  }

  save(v: StoredSignIn): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    // Written whole then renamed: a crash never leaves half a token behind.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(v, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  clear(): void {
    rmSync(this.file, { force: true });
  }
}
