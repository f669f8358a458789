import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mailConfigured, publicUrlIsLocal, type Config } from '../../config.js';
import { problemResponses } from '../../shared/schemas.js';
import { IMAGE_TYPES } from '../../infrastructure/images/images.js';
import { Settings, type SettingsDto } from './settings.schemas.js';

/**
 * The configured limits a client checks input against before sending it, and what the web app must
 * know so as not to promise what the service will not do (docs/configuration.md#mail,
 * docs/configuration.md#public-url). `mailer`: a test's stand-in for SMTP counts as configured.
 */
export function publishedSettings(config: Config, mailer = mailConfigured(config)): SettingsDto {
  return {
    imageMaxBytes: config.IMAGE_MAX_BYTES,
    imageMaxPixels: config.IMAGE_MAX_PIXELS,
    imageTypes: [...IMAGE_TYPES],
    // Rounded down, so a client that stays within them is never refused.
    reservationMaxLengthSeconds: Math.floor(config.RESERVATION_MAX_LENGTH / 1000),
    reservationHorizonSeconds: Math.floor(config.RESERVATION_HORIZON / 1000),
    passwordChangeAfterAdminSet: config.PASSWORD_CHANGE_AFTER_ADMIN_SET,
    mailConfigured: mailer,
    publicUrl: config.PUBLIC_URL,
    publicUrlIsLocal: publicUrlIsLocal(config),
  };
}

// The values change only when the service restarts with another configuration.
const CACHE_CONTROL = 'public, max-age=300';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ config: Config; mailConfigured: boolean }> = async (app, { config, mailConfigured: mailer }) => {
  const settings = publishedSettings(config, mailer);
  app.get(
    '/api/settings',
    {
      config: { public: true },
      schema: {
        tags: ['Settings'],
        summary: 'Published limits',
        description:
          'The limits the service enforces, so a client can check input before sending it: image uploads (size, pixels, types) and the booking rules that bind USERs; ' +
          'whether it sends mail at all, and the public URL its QR codes and links use (and whether that URL reaches only this machine). ' +
          'No authentication. They change only when the service restarts with another configuration, so the answer may be cached for 5 minutes (`Cache-Control: public, max-age=300`).',
        security: [],
        response: { 200: Settings, ...problemResponses() },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', CACHE_CONTROL);
      return settings;
    },
  );
};
