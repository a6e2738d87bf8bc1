import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { parseRange } from '../services/explore/range';
import type { Storage } from '../storage/storage';

/**
 * Streams a stored object with HTTP Range support (one range: 206 + content-range; none: 200;
 * unsatisfiable: 400 with `content-range: bytes *\/size`). Callers set content type and
 * disposition first. Used by the explorer artifacts, task outputs and download links.
 */
export async function sendStored(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  key: string,
  size: number,
): Promise<FastifyReply> {
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new AppError('VALIDATION_FAILED', { range: req.headers.range, size }, 'explore.badRange');
  }
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    reply.header('content-length', range.end - range.start + 1);
    return reply.send(await storage.get(key, range));
  }
  reply.header('content-length', size);
  return reply.send(await storage.get(key));
}
