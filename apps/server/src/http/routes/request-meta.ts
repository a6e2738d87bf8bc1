import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../../services/accounts/deps';
import { localeOf } from '../error-handler';

/** IP (honouring TRUST_PROXY), user agent and language of a request. */
export function metaOf(req: FastifyRequest): RequestMeta {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 300) : '', locale: localeOf(req) };
}
