// Notification choices (spec §1 /notifications), shared by the use cases, the /api schemas and the
// web app's form. Pure constants: the web app imports the schemas built on these.

export const DIGEST_CADENCES = ['daily', 'weekly', 'off'] as const;
export type DigestCadence = (typeof DIGEST_CADENCES)[number];
export const ALERT_CHANNELS = ['email', 'webhook'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
/** The event type of the "send a test alert" button's frame; never on a project stream. */
export const TEST_ALERT_TYPE = 'alert.test';
