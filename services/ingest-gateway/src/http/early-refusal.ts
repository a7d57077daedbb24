import type http from 'node:http';
import type { Socket } from 'node:net';
import { sendError, type IngestError } from './ingest-error.js';

export type EarlyRefusalLimits = {
  /** A body up to this size is read and discarded before the answer; a larger one closes the connection. */
  drainCapBytes: number;
  /** Longest wait for the body being discarded. */
  drainTimeoutMs: number;
  /** After answering with Connection: close, how long what the client still sends is discarded. */
  lingerMs: number;
};

/**
 * Answers a request refused before its body was read (401, 403, 411, 413, 415, 429, 404, …)
 * so that the client receives the answer.
 *
 * NOTE: closing a socket whose receive buffer still holds unread body bytes makes the kernel
 * send a TCP reset instead of a FIN, and a reset can discard the answer before the client has
 * read it (measured with Java's java.net.http: 10-13 % of early refusals seen as "no bytes").
 * So the body is read and discarded first when it is at most `drainCapBytes` (the spec's
 * 126,000-byte limit: never more than an accepted batch costs), and the connection stays open
 * for the next request. A body that is larger, not framed by a length, or slower than
 * `drainTimeoutMs` is answered with Connection: close, and the socket then closes "lingering":
 * half-closed after the answer, discarding what still arrives until the client closes, the body
 * ends or `lingerMs` passes, as web servers do (Apache's lingering close, nginx's lingering_close).
 * A client sending `Expect: 100-continue` gets node's automatic 100 Continue, then the same.
 */
export function answerBeforeBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  error: IngestError,
  limits: EarlyRefusalLimits,
): void {
  const declared = req.headers['content-length'];
  if (req.complete || declared === '0') return sendError(res, error);
  if (declared !== undefined && !(Number(declared) <= limits.drainCapBytes)) {
    return answerAndLinger(req, res, error, limits);
  }
  let received = 0;
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData).off('end', onEnd).off('close', onClose);
  };
  const finish = (drained: boolean) => {
    stop();
    if (drained) sendError(res, error);
    else answerAndLinger(req, res, error, limits);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limits.drainCapBytes) finish(false);
  };
  const onEnd = () => finish(true);
  // The client went away before sending its whole body: nobody is left to answer.
  const onClose = () => (req.complete ? undefined : stop());
  const timer = setTimeout(() => finish(false), limits.drainTimeoutMs);
  req.on('data', onData).on('end', onEnd).on('close', onClose);
}

function answerAndLinger(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  error: IngestError,
  limits: EarlyRefusalLimits,
): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // NOTE: node:http ends a Connection: close response with socket.destroySoon(), which
  // destroys the socket as soon as the answer is flushed, unread bytes or not; this socket
  // closes lingering instead.
  socket.destroySoon = () => lingeringClose(socket, req, limits.lingerMs);
  req.resume(); // keep discarding the body while answering
  sendError(res, error, true);
}

function lingeringClose(socket: Socket, req: http.IncomingMessage, lingerMs: number): void {
  socket.end(); // FIN once the answer is flushed; reading goes on
  // destroy() drops writes still buffered in the process: the answer must be flushed first.
  const close = () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()));
  const timer = setTimeout(close, lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', close); // the client closed its side: nothing more will arrive
  if (req.complete) close();
  else req.once('end', close); // the whole body arrived: nothing is left unread
}
