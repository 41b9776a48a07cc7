/** The portal's public base URL: PUBLIC_URL, or this request's protocol and host. No trailing slash. */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL'>, request: FastifyRequest): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  return `${request.protocol}://${request.host}`;
}
