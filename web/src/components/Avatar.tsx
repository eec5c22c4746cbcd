// A person's picture from their avatar URL (https only: the page's CSP admits https images), or
// their initials when there is none or it does not load. Decorative: the name sits beside it.
import { useState } from 'react';
import { initials } from '../screens/account/fns/profile.ts';

export function Avatar({ name, url, size = 'md' }: { name: string; url: string | null | undefined; size?: 'md' | 'lg' }) {
  const [broken, setBroken] = useState<string | null>(null);
  const show = url && url.startsWith('https://') && broken !== url;
  return show ? (
    <img className={`avatar avatar-${size}`} src={url} alt="" referrerPolicy="no-referrer" onError={() => setBroken(url)} />
  ) : (
    <span className={`avatar avatar-${size} avatar-initials`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
