import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID Provider (oidc-provider, the certified Node implementation) on a free port, with
 * one confidential test client and an account store the test controls. Its dev login and consent
 * forms are posted like a browser would (signInThroughProvider in oidc-flow.ts).
 *
 * Requests reach it through a small front server on the issuer's port, which can tamper with the
 * ID token the token endpoint answers (re-signed with the provider's own key, or with another
 * key under the same key id): how a test gets a wrong nonce, audience or expiry out of a real
 * provider. `stop()` closes the port (the provider is then down).
 */

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** Changes the ID token's claims before it reaches Deskbook (undefined: untouched). */
  tamper: ((claims: JWTPayload) => JWTPayload) | undefined;
  /** Signs the (tampered) ID token with a key the provider does not publish, under the same kid. */
  signWithForeignKey: boolean;
  stop(): Promise<void>;
}

const KID = 'test-signing-key';

async function signingKey(): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
  return { jwk, privateKey };
}

const readBody = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

export async function startOidcProvider(options: { redirectUri: string; clientId?: string; clientSecret?: string }): Promise<TestProvider> {
  const clientId = options.clientId ?? 'deskbook';
  const clientSecret = options.clientSecret ?? 'deskbook-client-secret-for-tests';
  const own = await signingKey();
  const foreign = await signingKey();
  const accounts = new Map<string, TestAccount>();

  const front: Server = createServer();
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [own.jwk] },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'groups'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account }) };
    },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
  const handle = provider.callback();

  const internal: Server = createServer(handle);
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  const internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;

  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamper: undefined,
    signWithForeignKey: false,
    async stop() {
      front.closeAllConnections();
      internal.closeAllConnections();
      await Promise.all([new Promise((resolve) => front.close(resolve)), new Promise((resolve) => internal.close(resolve))]);
    },
  };

  front.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const tampering = state.tamper !== undefined || state.signWithForeignKey;
    if (!(tampering && request.method === 'POST' && request.url === '/token')) return handle(request, response);
    void (async () => {
      const body = await readBody(request);
      const answer = await fetch(`${internalUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': String(request.headers['content-type']), authorization: String(request.headers.authorization ?? '') },
        body,
      });
      const json = (await answer.json()) as Record<string, unknown>;
      if (typeof json.id_token === 'string') {
        const claims = (state.tamper ?? ((c: JWTPayload) => c))(decodeJwt(json.id_token));
        json.id_token = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
          .sign(state.signWithForeignKey ? foreign.privateKey : own.privateKey);
      }
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(json));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });

  return state;
}
