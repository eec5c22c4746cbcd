// Enforces the idle sign-out setting in the browser (D2; the server enforces it too, but the
// app's own silent refresh and live feed would otherwise keep an abandoned tab's session alive):
// no keyboard, pointer or scroll activity in any tab for the chosen time signs the session out
// on the server and shows the sign-in page with the reason.
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { signedOut } from '../api/session.ts';
import { useMe } from '../api/queries.ts';
import { ACTIVITY_KEY, IDLE_REASON_KEY, isIdle } from './fns/idle.ts';

const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
/** This tab's last activity; module-wide, so a re-render or a changed setting never resets it. */
let last = Date.now();
let lastStored = 0;

export function IdleGuard() {
  const choice = useMe().data?.idleTimeout;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const out = useRef({ qc, navigate });
  out.current = { qc, navigate };
  // The shell appears at sign-in (and at page load): that is activity.
  useEffect(() => {
    last = Date.now();
  }, []);
  useEffect(() => {
    if (!choice || choice === 'never') return;
    const store = (t: number) => {
      lastStored = t;
      try {
        localStorage.setItem(ACTIVITY_KEY, String(t));
      } catch {
        /* storage refused: this tab's own activity still counts */
      }
    };
    // A fresh page starts the clock; another tab's later activity (shared) counts too.
    const shared = Number(localStorage.getItem(ACTIVITY_KEY)) || 0;
    if (shared < last) store(last);
    const mark = () => {
      const now = Date.now();
      // Written at most every few seconds: pointer moves fire constantly.
      if (now - lastStored > 5_000) store(now);
      last = now;
    };
    let done = false;
    const check = async () => {
      const shared = Number(localStorage.getItem(ACTIVITY_KEY)) || 0;
      if (done || !isIdle(choice, Math.max(last, shared), Date.now())) return;
      done = true;
      // Other requests may meet the ended session first and send the app to /login on their own.
      try {
        sessionStorage.setItem(IDLE_REASON_KEY, '1');
      } catch {
        /* the query parameter below still says it */
      }
      await api('POST', '/api/auth/logout', {}).catch(() => undefined);
      signedOut();
      out.current.qc.clear();
      out.current.navigate('/login?idle=1', { replace: true });
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
  }, [choice]);
  return null;
}
