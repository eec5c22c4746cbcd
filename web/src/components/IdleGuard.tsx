// Enforces the idle sign-out setting in the browser (D2; the server enforces it too, but the
// app's own silent refresh and live feed would otherwise keep an abandoned tab's session alive):
// no keyboard, pointer or scroll activity in any tab for the chosen time signs the session out
// on the server and shows the sign-in page with the reason.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { signedOut } from '../api/session.ts';
import { useMe } from '../api/queries.ts';
import { ACTIVITY_KEY, isIdle } from './fns/idle.ts';

const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

export function IdleGuard() {
  const choice = useMe().data?.idleTimeout;
  const qc = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    if (!choice || choice === 'never') return;
    let last = Date.now();
    const store = (t: number) => {
      try {
        localStorage.setItem(ACTIVITY_KEY, String(t));
      } catch {
        /* storage refused: this tab's own activity still counts */
      }
    };
    store(last);
    const mark = () => {
      const now = Date.now();
      // Written at most every few seconds: pointer moves fire constantly.
      if (now - last > 5_000) store(now);
      last = now;
    };
    let done = false;
    const check = async () => {
      const shared = Number(localStorage.getItem(ACTIVITY_KEY)) || 0;
      if (done || !isIdle(choice, Math.max(last, shared), Date.now())) return;
      done = true;
      await api('POST', '/api/auth/logout', {}).catch(() => undefined);
      signedOut();
      qc.clear();
      navigate('/login?idle=1', { replace: true });
    };
    for (const e of EVENTS) window.addEventListener(e, mark, { passive: true, capture: true });
    const timer = setInterval(() => void check(), 10_000);
    const onVisible = () => document.visibilityState === 'visible' && void check();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      for (const e of EVENTS) window.removeEventListener(e, mark, { capture: true });
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [choice, qc, navigate]);
  return null;
}
