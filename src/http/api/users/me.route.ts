// GET and PATCH /api/users/me: the profile of spec §2, patched with the UI's own schema.
import { getProfile, updateProfile } from '../../../app/identity/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { profile, profilePatchSchema } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/users/me', { schema: { response: { 200: envelope(profile) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await getProfile(s, authOf(req).userId)),
  );
  app.patch('/api/users/me', { schema: { body: profilePatchSchema, response: { 200: envelope(profile) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await updateProfile(s, authOf(req).userId, req.body)),
  );
};
export default route;
