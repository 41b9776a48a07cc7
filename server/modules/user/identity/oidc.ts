/**
 * The OpenID Connect client side (openid-client 5): authorization code flow with PKCE (S256), the
 * `state` and `nonce` checked by the library against what the portal stored, the ID token verified
 * against the provider's keys, then the userinfo claims. The provider's configuration is discovered on
 * first use (and again after a failure), so a provider that is down at start costs nothing until used.
 */
import { custom, errors, generators, Issuer, type BaseClient } from 'openid-client';
import type { ExternalIdentity } from './accounts';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  timeoutMs: number;
}

/** Why a sign-in failed: the provider refused it, could not be reached, or the answer did not check out. */
export class OidcError extends Error {
  constructor(
    readonly kind: 'denied' | 'unreachable' | 'ticket' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

function classify(err: unknown): OidcError {
  if (err instanceof OidcError) return err;
  if (err instanceof errors.OPError) {
    // invalid_grant: the code was used, expired or issued for another client or redirect URI.
    return err.error === 'invalid_grant'
      ? new OidcError('ticket', `OIDC 授权码无效（${err.error}）`)
      : new OidcError('denied', `OIDC 服务器拒绝了请求（${err.error}）`);
  }
  if (err instanceof errors.RPError) {
    // openid-client names the values it compared ("nonce mismatch, expected <nonce>, got: …"): the
    // message is logged, and a nonce or state of a sign-in in progress has no place in a log.
    const reason = err.message.split(/, (?:expected|got|now)\b/)[0];
    return /timed out/.test(err.message)
      ? new OidcError('unreachable', 'OIDC 服务器响应超时')
      : new OidcError('failed', `OIDC 应答未通过校验：${reason}`);
  }
  const code = (err as { code?: string })?.code;
  if (code || err instanceof TypeError)
    return new OidcError('unreachable', `无法连接 OIDC 服务器（${code ?? 'network'}）`);
  return new OidcError('failed', `OIDC 登录失败：${(err as Error)?.message ?? err}`);
}

const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x) => ['string', 'number', 'boolean'].includes(typeof x)).map((x) => String(x));

export class OidcClient {
  private client: Promise<BaseClient> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  private getClient(): Promise<BaseClient> {
    if (!this.client) {
      const timeout = this.settings.timeoutMs;
      const pending = (async () => {
        Issuer[custom.http_options] = () => ({ timeout });
        const issuer = await Issuer.discover(this.settings.issuer);
        const client = new issuer.Client({
          client_id: this.settings.clientId,
          client_secret: this.settings.clientSecret,
          response_types: ['code'],
        });
        client[custom.http_options] = () => ({ timeout });
        return client;
      })();
      this.client = pending;
      pending.catch(() => {
        if (this.client === pending) this.client = null; // discover again next time
      });
    }
    return this.client;
  }

  /** The provider's authorization URL, and the PKCE verifier and nonce to keep until the callback. */
  async start(redirectUri: string, state: string): Promise<{ url: string; codeVerifier: string; nonce: string }> {
    try {
      const client = await this.getClient();
      const codeVerifier = generators.codeVerifier();
      const nonce = generators.nonce();
      const url = client.authorizationUrl({
        redirect_uri: redirectUri,
        scope: this.settings.scopes,
        state,
        nonce,
        code_challenge: generators.codeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, codeVerifier, nonce };
    } catch (err) {
      throw classify(err);
    }
  }

  /** Exchanges the code (with the verifier), checks state, nonce and the ID token, reads the claims. */
  async finish(
    redirectUri: string,
    params: Record<string, string | undefined>,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ExternalIdentity> {
    if (params.error) throw new OidcError('denied', `OIDC 服务器拒绝了登录（${params.error}）`);
    try {
      const client = await this.getClient();
      const tokens = await client.callback(redirectUri, params, {
        state: checks.state,
        nonce: checks.nonce,
        code_verifier: checks.codeVerifier,
        response_type: 'code',
      });
      const idClaims = tokens.claims();
      const info: Record<string, unknown> = tokens.access_token ? await client.userinfo(tokens) : {};
      if (info.sub && info.sub !== idClaims.sub) throw new OidcError('failed', 'userinfo 与 ID 令牌的用户不一致');
      const claims: Record<string, unknown> = { ...idClaims, ...info };
      const attributes: Record<string, string[]> = {};
      for (const [name, value] of Object.entries(claims)) {
        const list = strings(value);
        if (list.length) attributes[name] = list;
      }
      const first = (...names: string[]) => names.map((n) => attributes[n]?.[0]).find((v) => v?.trim()) ?? null;
      return {
        provider: 'oidc',
        subject: String(idClaims.sub),
        displayName: first('name', 'nickname', 'preferred_username'),
        email: claims.email_verified === false ? null : first('email'),
        attributes,
      };
    } catch (err) {
      throw classify(err);
    }
  }
}
