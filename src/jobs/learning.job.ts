// The learning plane's runs (D15): shortly after the worker starts, then every
// LEARNING_INTERVAL_SECONDS. A singleton queue, so only one run is active across all workers; the
// stages also take their own advisory locks. Worker only: nothing here is reachable from a request.
// Each run's work yields to the proxy calls this process is serving (app/learning/pacing.ts).
//
// Before anything runs, the worker checks it can switch to the role switchboard_learning (lock 6
// held by the database). Where the database could not make the role (an external PostgreSQL whose
// user lacks CREATEROLE), the plane stays off and says so once, with the fix.
import type { JobModule } from './index.ts';
import { runLearningTick } from '../app/learning/index.ts';
import { learningRoleUsable } from '../app/learning/index.ts';
import { ensureBudgetsForWindow } from '../app/learning/index.ts';
import { grantLearningRole } from '../store/migrations/017a-learning-role.ts';

export const LEARNING_QUEUE = 'learning.tick';
/** The first run waits this long after start-up, so it never competes with the worker's boot. */
const FIRST_RUN_MS = 3_000;

export const learningJob: JobModule = {
  name: LEARNING_QUEUE,
  options: { policy: 'singleton' },
  async register(boss, s) {
    if (!s.config.LEARNING_ENABLED) return;
    const role = await learningRoleUsable(s.db);
    if (!role.ok) {
      s.log.error(
        { reason: role.reason },
        'learning plane OFF: this database user cannot SET ROLE switchboard_learning. As a superuser run ' +
          '"create role switchboard_learning nologin; grant switchboard_learning to <service user>;" then restart (docs/learning-plane.md)',
      );
      return;
    }
    // The role's table grants, again: a role an operator created after the migrations ran has none
    // yet. One transaction, so a run of another worker never sees them half-applied.
    await s.db
      .transaction()
      .execute((tx) => grantLearningRole(tx))
      .catch((e) => s.log.warn(e, 'learning plane: could not refresh the role’s grants (another worker may be doing it)'));
    // ensureBudgetsForWindow at boot (spec §4), as the service's user: the month's rows exist
    // before the first run, so the admin console shows them at once.
    const c = s.config;
    await ensureBudgetsForWindow(s.db, s.clock.now(), { synthgen: c.LEARNING_BUDGET_SYNTHGEN_MICROS, replay: c.LEARNING_BUDGET_REPLAY_MICROS });
    await boss.work(LEARNING_QUEUE, async () => {
      const r = await runLearningTick(s);
      if (r.consumed || r.detect.minted || r.validated || r.deferred) {
        s.log.info(
          { consumed: r.consumed, evidence: r.evidence, signals: r.detect.signals, minted: r.detect.minted, validated: r.validated, backlog: r.backlog, slices: r.slices, deferred: r.deferred },
          r.deferred ? 'learning plane run (yielded to live traffic: the rest waits for the next run)' : 'learning plane run',
        );
      }
    });
    const kick = () =>
      boss
        .send(LEARNING_QUEUE, {}, { singletonKey: 'learning', singletonSeconds: Math.max(1, c.LEARNING_INTERVAL_SECONDS - 1), retryLimit: 0 })
        .catch(() => {}); // the queue is stopping: nothing to run
    const first = setTimeout(kick, FIRST_RUN_MS);
    const every = setInterval(kick, c.LEARNING_INTERVAL_SECONDS * 1000);
    first.unref();
    every.unref();
    boss.once('stopped', () => {
      clearTimeout(first);
      clearInterval(every);
    });
  },
};
