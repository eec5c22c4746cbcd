// The few extension APIs this extension uses (Chromium MV3), declared here rather than pulling in
// all of @types/chrome: each signature below is the documented one at developer.chrome.com.
declare namespace chrome {
  namespace runtime {
    const id: string;
    const lastError: { message?: string } | undefined;
    interface MessageSender {
      id?: string;
      url?: string;
      origin?: string;
      tab?: { id?: number; url?: string };
    }
    interface Port {
      name: string;
      sender?: MessageSender;
      postMessage(message: unknown): void;
      disconnect(): void;
      onMessage: { addListener(cb: (message: any, port: Port) => void): void };
      onDisconnect: { addListener(cb: (port: Port) => void): void };
    }
    function connect(info?: { name?: string }): Port;
    function sendMessage<T = unknown>(message: unknown): Promise<T>;
    function getURL(path: string): string;
    function openOptionsPage(): Promise<void>;
    function getManifest(): { version: string; name: string };
    const onConnect: { addListener(cb: (port: Port) => void): void };
    const onMessage: { addListener(cb: (message: any, sender: MessageSender, sendResponse: (r: unknown) => void) => boolean | void): void };
    const onInstalled: { addListener(cb: () => void): void };
    const onStartup: { addListener(cb: () => void): void };
  }
  namespace storage {
    interface Area {
      get(keys: string | string[] | null): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string | string[]): Promise<void>;
    }
    const local: Area;
    const onChanged: { addListener(cb: (changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, area: string) => void): void };
  }
  namespace scripting {
    interface RegisteredContentScript {
      id: string;
      js?: string[];
      matches?: string[];
      runAt?: 'document_start' | 'document_end' | 'document_idle';
      allFrames?: boolean;
      world?: 'ISOLATED' | 'MAIN';
      persistAcrossSessions?: boolean;
    }
    function registerContentScripts(scripts: RegisteredContentScript[]): Promise<void>;
    function unregisterContentScripts(filter?: { ids?: string[] }): Promise<void>;
    function getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<RegisteredContentScript[]>;
  }
  namespace tabs {
    interface Tab {
      id?: number;
      url?: string;
      active: boolean;
      lastAccessed?: number;
    }
    function query(q: { active?: boolean; lastFocusedWindow?: boolean; currentWindow?: boolean }): Promise<Tab[]>;
    function create(p: { url: string }): Promise<Tab>;
  }
}
