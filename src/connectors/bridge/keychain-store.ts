// The OS keychain for the bridge's sign-in (D14): the freedesktop Secret Service
// (org.freedesktop.secrets on the session D-Bus: GNOME Keyring, KWallet, KeePassXC), spoken by
// dbus-next like the notifications, so nothing native is installed. The whole sign-in (refresh
// token, and the bridge's service key) is one item with the attributes {application:
// switchboard, kind: bridge-signin} in the default collection, sent over a `plain` session (the
// bus is the user's own socket). Where no service answers, or the collection is locked and would
// need a password prompt, openCredentialStore falls back to the 0600 file.
import dbus from 'dbus-next';
import { FileCredentialStore, type CredentialStore, type StoredSignIn } from './credential-store.ts';

const NAME = 'org.freedesktop.secrets';
const ATTRS = { application: 'switchboard', kind: 'bridge-signin' };

export class KeychainCredentialStore implements CredentialStore {
  readonly where = 'the OS keychain (Secret Service)';
  private constructor(
    private readonly bus: dbus.MessageBus,
    private readonly service: dbus.ClientInterface,
    private readonly session: string,
    private readonly collection: string,
  ) {}

  /** Connects, or throws a sentence saying why the keychain cannot be used. */
  static async open(): Promise<KeychainCredentialStore> {
    const bus = dbus.sessionBus();
    // No bus at all surfaces as an 'error' event, not a rejection; no answer within 5 s is none.
    const failed = new Promise<never>((_, reject) => {
      bus.on('error', (e: Error) => reject(new Error(`no session D-Bus (${e.message})`)));
      setTimeout(() => reject(new Error('the Secret Service did not answer within 5 s')), 5_000).unref();
    });
    failed.catch(() => undefined);
    const connect = async () => {
      const obj = await bus.getProxyObject(NAME, '/org/freedesktop/secrets');
      const service = obj.getInterface('org.freedesktop.Secret.Service');
      const [, session] = (await service.OpenSession('plain', new dbus.Variant('s', ''))) as [unknown, string];
      const collection = (await service.ReadAlias('default')) as string;
      if (!collection || collection === '/') throw new Error('the keychain has no default collection');
      const props = (await bus.getProxyObject(NAME, collection)).getInterface('org.freedesktop.DBus.Properties');
      const locked = ((await props.Get('org.freedesktop.Secret.Collection', 'Locked')) as dbus.Variant).value as boolean;
      if (locked) {
        // Unlocked without a prompt when the session unlocked the keyring at login; a prompt
        // would need a person at a dialog the bridge cannot show, so that counts as unusable.
        const [unlocked] = (await service.Unlock([collection])) as [string[], string];
        if (!unlocked.includes(collection)) throw new Error('the default keychain collection is locked');
      }
      return new KeychainCredentialStore(bus, service, session, collection);
    };
    try {
      return await Promise.race([connect(), failed]);
    } catch (e) {
      bus.disconnect();
      throw e;
    }
  }

  private async items(): Promise<string[]> {
    const [unlocked] = (await this.service.SearchItems(ATTRS)) as [string[], string[]];
    return unlocked;
  }

  async load(): Promise<StoredSignIn | null> {
    const items = await this.items();
    if (!items.length) return null;
    const secrets = (await this.service.GetSecrets(items.slice(0, 1), this.session)) as Record<string, [string, Buffer, Buffer, string]>;
    const s = Object.values(secrets)[0];
    if (!s) return null;
    try {
      const v = JSON.parse(Buffer.from(s[2]).toString('utf8')) as StoredSignIn;
      return typeof v.refreshToken === 'string' && typeof v.baseUrl === 'string' ? v : null;
    } catch {
      return null;
    }
  }

  async save(v: StoredSignIn): Promise<void> {
    const coll = (await this.bus.getProxyObject(NAME, this.collection)).getInterface('org.freedesktop.Secret.Collection');
    const props = {
      'org.freedesktop.Secret.Item.Label': new dbus.Variant('s', `Switchboard bridge sign-in (${v.deviceName})`),
      'org.freedesktop.Secret.Item.Attributes': new dbus.Variant('a{ss}', ATTRS),
    };
    await coll.CreateItem(props, [this.session, Buffer.alloc(0), Buffer.from(JSON.stringify(v), 'utf8'), 'application/json'], true);
  }

  async clear(): Promise<void> {
    for (const path of await this.items()) {
      await (await this.bus.getProxyObject(NAME, path)).getInterface('org.freedesktop.Secret.Item').Delete();
    }
  }

  close(): void {
    this.bus.disconnect();
  }
}

/** The keychain when one is reachable and unlocked, else the 0600 file; `why` says which and why. */
export async function openCredentialStore(dir: string): Promise<{ store: CredentialStore; why: string }> {
  const file = new FileCredentialStore(dir);
  try {
    const kc = await KeychainCredentialStore.open();
    // A sign-in saved in the file before the keychain was there moves into the keychain.
    const old = await file.load();
    if (old && !(await kc.load())) {
      await kc.save(old);
      await file.clear();
    }
    return { store: kc, why: 'sign-in kept in the OS keychain (Secret Service)' };
  } catch (e) {
    return { store: file, why: `no usable OS keychain (${e instanceof Error ? e.message : e}); sign-in kept in ${file.file} (0600)` };
  }
}
