import { Type, type Static } from '@sinclair/typebox';

export const Settings = Type.Object(
  {
    imageMaxBytes: Type.Integer({ minimum: 1, description: 'Largest image upload in bytes (IMAGE_MAX_BYTES); larger is 413.' }),
    imageMaxPixels: Type.Integer({ minimum: 1, description: 'Largest image in pixels, width × height (IMAGE_MAX_PIXELS); larger is 413.' }),
    imageTypes: Type.Array(Type.String(), { description: 'Media types of the images accepted (decided by the bytes); anything else is 415.' }),
    reservationMaxLengthSeconds: Type.Integer({
      minimum: 1,
      description: 'Longest reservation a USER may make, in whole seconds (RESERVATION_MAX_LENGTH); admins are exempt.',
    }),
    reservationHorizonSeconds: Type.Integer({
      minimum: 1,
      description: 'How far ahead of now a USER may start a reservation, in whole seconds (RESERVATION_HORIZON); admins are exempt.',
    }),
    passwordChangeAfterAdminSet: Type.Boolean({
      description: 'PASSWORD_CHANGE_AFTER_ADMIN_SET: whether a password an admin sets for someone else must be replaced by that person at their next sign-in.',
    }),
    mailConfigured: Type.Boolean({
      description:
        'Whether the service sends mail at all (SMTP_URL set). False: no password link, invitation or notification mail leaves it (docs/configuration.md#mail).',
    }),
    publicUrl: Type.String({ description: 'PUBLIC_URL: the base of desk QR codes, calendar links and links in mails.' }),
    publicUrlIsLocal: Type.Boolean({
      description:
        'Whether PUBLIC_URL names this machine only (unset: http://localhost:<PORT>), so that QR codes and links reach nobody else (docs/configuration.md#public-url).',
    }),
  },
  { title: 'Settings', additionalProperties: false },
);
export type SettingsDto = Static<typeof Settings>;
