import * as client from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../shared/errors.js';

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string;
  timeoutMs: number;
}

/** What Deskbook reads of a verified sign-in: the ID token's claims, completed by userinfo. */
export type OidcClaims = Record<string, unknown> & { sub: string };

/**
 * The relying party (openid-client): discovery once (again after a failure), the authorization
 * URL with PKCE, state and nonce, and the code grant whose ID token openid-client verifies
 * (signature from the provider's JWKS, issuer, audience, expiry, nonce). Every wait on the provider
 * is bounded by OIDC_TIMEOUT; a provider that does not answer is a 503.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcClientSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  static randomSecret(): string {
    return client.randomState();
  }

  static randomVerifier(): string {
    return client.randomPKCECodeVerifier();
  }

  private discover(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        { client_secret: this.settings.clientSecret },
        client.ClientSecretBasic(this.settings.clientSecret),
        {
          timeout: this.settings.timeoutMs / 1000,
          // The ID token's signature is checked against the provider's JWKS even though it came
          // straight from the token endpoint (openid-client skips that unless asked).
          execute: [client.enableNonRepudiationChecks, ...(new URL(this.settings.issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [])],
        },
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  async authorizationUrl(input: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const configuration = await this.call('discovery', () => this.discover());
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      state: input.state,
      nonce: input.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** Redeems the code of the callback URL and answers the verified claims. */
  async redeem(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<OidcClaims> {
    const configuration = await this.call('discovery', () => this.discover());
    const tokens = await this.call('token', () =>
      client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      }),
    );
    const idClaims = tokens.claims();
    if (!idClaims) throw new AppError('OIDC_TOKEN_INVALID', 'The provider sent no ID token');
    let info: Record<string, unknown> = {};
    if (configuration.serverMetadata().userinfo_endpoint && tokens.access_token) {
      info = await this.call('userinfo', () => client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub));
    }
    // The ID token speaks for the sign-in; userinfo only adds claims it lacks.
    return { ...info, ...idClaims } as OidcClaims;
  }

  private async call<T>(step: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw this.classify(step, error);
    }
  }

  private classify(step: string, error: unknown): AppError {
    if (error instanceof AppError) return error;
    if (error instanceof client.AuthorizationResponseError) {
      this.log.info({ step, error: error.error }, 'the identity provider refused the sign-in');
      return new AppError(
        'OIDC_PROVIDER_ERROR',
        `The identity provider answered: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
      );
    }
    if (error instanceof client.ResponseBodyError) {
      this.log.info({ step, error: error.error, status: error.status }, 'the identity provider refused a request');
      if (error.status >= 500) return this.unavailable(step, error);
      return new AppError('OIDC_PROVIDER_ERROR', `The identity provider answered: ${error.error}`);
    }
    const code = (error as { code?: string }).code;
    const unavailableCodes = ['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON'];
    if (error instanceof TypeError || (code !== undefined && unavailableCodes.includes(code)) || step === 'discovery') return this.unavailable(step, error);
    this.log.warn({ step, err: error, code }, 'the identity provider’s answer failed verification');
    return new AppError('OIDC_TOKEN_INVALID', `The identity provider's answer failed verification: ${(error as Error).message}`);
  }

  private unavailable(step: string, error: unknown): AppError {
    this.log.warn({ step, err: error }, 'the identity provider does not answer');
    return new AppError('SERVICE_UNAVAILABLE', 'The identity provider does not answer; try again later');
  }
}
