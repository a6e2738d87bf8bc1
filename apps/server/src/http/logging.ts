import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters and headers that carry credentials: never written to a log. */
const SECRET_QUERY = /([?&](?:token|access[-_]token|download[-_]token|password)=)[^&#]*/gi;
const SECRET_HEADERS = ['access-token', 'authorization', 'cookie', 'x-api-key'];

/** A URL with its credential parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * pino options of the API: credential headers and query tokens are redacted wherever a request
 * is serialized (request logs, error logs).
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]),
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}

/**
 * Requests are logged at debug (start and completion, URL redacted by the serializer); errors
 * stay at error level. Info is left to errors, job events and the `[outbox]` line.
 */
export class DebugRequestLogs extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error)
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
