import http from 'node:http';
import https from 'node:https';
import { checkTargetUrl, guardedLookup, type TargetPolicy } from './target-policy.js';

export type PostResult = { statusCode: number; retryAfterSeconds: number | undefined };

/**
 * POSTs a body and resolves with the status code; the response body is read and dropped.
 * Redirects are not followed (a redirect could lead anywhere, past the target policy).
 * Rejects on network errors, on the timeout, and with TargetRefusedError when the policy
 * refuses the URL or the address its host resolves to.
 */
export function postJson(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: { policy: TargetPolicy; timeoutMs: number },
): Promise<PostResult> {
  let req: http.ClientRequest | undefined;
  return new Promise((settleOk, settleError) => {
    // NOTE: `timeout` below is the socket's idle time only: a receiver that drips its answer a
    // byte at a time resets it forever. This deadline bounds the whole attempt, as the
    // evaluator's lease (FRAMEDECK_ALERTS_LEASE_MS > timeout) assumes.
    const resolve = (result: PostResult) => (clearTimeout(deadline), settleOk(result));
    const reject = (error: unknown) => (clearTimeout(deadline), settleError(error));
    const deadline = setTimeout(() => {
      reject(new Error(`no complete response within ${options.timeoutMs} ms`));
      req?.destroy();
    }, options.timeoutMs);
    let url: URL;
    try {
      url = checkTargetUrl(rawUrl, options.policy);
    } catch (error) {
      return reject(error);
    }
    const transport = url.protocol === 'https:' ? https : http;
    req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.policy),
        timeout: options.timeoutMs,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, retryAfterSeconds: retryAfter(res) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req!.destroy(new Error(`no response within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

function retryAfter(res: http.IncomingMessage): number | undefined {
  const value = Number(res.headers['retry-after']);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
