// The learning plane as the worker runs it (D15): shortly after start and then every
// LEARNING_INTERVAL_SECONDS, with nobody calling the stages by hand. And on a database whose user
// cannot use the role switchboard_learning (an external PostgreSQL without CREATEROLE), migrations
// still succeed and the worker keeps the plane off, saying why and how to fix it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestDatabase, type TestServer } from '../../test/harness.ts';
import { makeCalls, outboxCount } from '../../test/learning.ts';
import { learningJob } from './learning.job.ts';
import { learningRoleUsable } from '../app/learning/role.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('learning.tick job', () => {
  test('the worker consumes the outbox on its own, every LEARNING_INTERVAL_SECONDS', async () => {
    const srv: TestServer = await startTestServer({ env: { LEARNING_INTERVAL_SECONDS: '1' } });
    cleanups.push(() => srv.close());
    const t = await tenantWithKey(srv);
    await makeCalls(srv, t.key, 6);
    const total = await outboxCount(srv);
    let consumed = 0;
    for (let i = 0; i < 150 && consumed < total; i++) {
      await new Promise((r) => setTimeout(r, 100));
      consumed = (await sql<{ n: number }>`select count(*)::int as n from learning_outbox where consumed_at is not null`.execute(srv.services.db)).rows[0].n;
    }
    assert.equal(consumed, total);
    const budgets = (await sql<{ n: number }>`select count(*)::int as n from learning_plane_budgets`.execute(srv.services.db)).rows[0].n;
    assert.equal(budgets, 2, 'ensureBudgetsForWindow ran at boot');
  });

  test('without the role the migrations succeed and the plane stays off with a clear log line', async () => {
    const admin = process.env.DATABASE_URL!;
    const user = `sbt_limited_${randomBytes(4).toString('hex')}`;
    const name = `sbt_limited_db_${randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    // An ordinary user that owns its database, like a managed PostgreSQL's application user.
    await c.query(`create role ${user} login nosuperuser nocreaterole`);
    await c.query(`create database ${name} owner ${user}`);
    const u = new URL(admin);
    u.username = user;
    u.pathname = `/${name}`;
    const database: TestDatabase = {
      url: u.toString(),
      async drop() {
        await c.query(`drop database if exists ${name} with (force)`);
        await c.query(`drop owned by ${user} cascade`).catch(() => {});
        await c.query(`drop role if exists ${user}`);
        await c.end();
      },
    };
    const srv = await startTestServer({ database, worker: false });
    cleanups.push(async () => {
      await srv.close();
      await database.drop();
    });
    const usable = await learningRoleUsable(srv.services.db);
    assert.equal(usable.ok, false);
    const lines: string[] = [];
    const log = { info: () => {}, warn: () => {}, error: (_o: unknown, msg?: string) => void lines.push(msg ?? '') };
    await learningJob.register(srv.services.boss, { ...srv.services, log });
    assert.equal(lines.length, 1);
    assert.match(lines[0], /learning plane OFF/);
    assert.match(lines[0], /create role switchboard_learning nologin; grant switchboard_learning to/);
    // The service itself works: the API answers on this database.
    assert.equal((await srv.api('GET', '/health')).status, 200);
  });
});
