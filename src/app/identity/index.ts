// The identity domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { audit, listAudit, verifyAudit } from './audit.ts';
export { ACCESS_TTL_S, REFRESH_TTL_S, authenticate, createPat, listPats, listSessions, login, logout, refresh, requireRole, revokePat, revokeSession, signup } from './auth.ts';
export type { AuthContext, Role } from './auth.ts';
export { decideDeviceAuthorization, describeUserCode, pollDeviceToken, startDeviceAuthorization } from './device-auth.ts';
export { acceptInvite, createInvite, listInvites, previewInvite, revokeInvite } from './invites.ts';
export { KeyCache, createKey, keyOwnerSession, listKeys, revokeKey, rotateKey } from './keys.ts';
export type { KeyPrincipal } from './keys.ts';
export { changeRole, listMembers, removeMember } from './members.ts';
export { changePassword, requestPasswordReset, resetPassword } from './password.ts';
export { ensurePlatformAdmin, grantPlatformAdmin } from './platform-admin.ts';
export { getTenant, listMyTenants, renameTenant, switchTenant } from './tenants.ts';
export { getProfile, sendVerificationEmail, updateProfile, verifyEmail } from './users.ts';
