// Ledger checkpoints (D17):
//   GET  /.well-known/switchboard-ledger-key   public: the Ed25519 key that signs them, as a JWK
//                                              Set (RFC 7517/8037) with the PEM beside it
//   GET  /api/tenant/ledger/checkpoints        any member: the tenant's checkpoints, newest first
//   POST /api/tenant/ledger/checkpoints        the owner: sign the chain head now (on demand)
// The hourly worker job and every verifiable export (GET /api/tenant/ledger/export?format=json)
// take checkpoints too.
import { z } from 'zod';
import { listCheckpoints, takeCheckpoint } from '../../../app/money/index.ts';
import { publicJwkOf } from '../../../core/ledger/checkpoint.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

const checkpoint = z.object({
  tenantId: z.string(),
  sequence: z.string(),
  sealHash: z.string(),
  balanceMicros: z.string(),
  chainDigest: z.string(),
  time: z.string(),
  keyId: z.string(),
  signature: z.string(),
});

const route: RouteModule = (app, s) => {
  const jwk = publicJwkOf(s.secrets.ledgerSigning.publicKey);
  const pem = s.secrets.ledgerSigning.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  app.get('/.well-known/switchboard-ledger-key', async (_req, reply) =>
    reply.header('cache-control', 'public, max-age=300').send({ keys: [jwk], kid: jwk.kid, alg: 'EdDSA', pem }),
  );
  app.get('/api/tenant/ledger/checkpoints', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(checkpoint)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await listCheckpoints(s.db, authOf(req).tenantId, req.query)),
  );
  app.post(
    '/api/tenant/ledger/checkpoints',
    { schema: { response: { 200: envelope(z.object({ checkpoint: checkpoint.nullable() })) } }, onRequest: requireAuth(s, { role: 'owner' }) },
    async (req) => ok({ checkpoint: await takeCheckpoint(s, authOf(req).tenantId) }),
  );
};
export default route;
