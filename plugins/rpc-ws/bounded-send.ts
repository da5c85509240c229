/**
 * Sending to a WebSocket client without buffering for it without bound: a client that does not read what it is sent
 * (its socket buffer holds more than MAX_WAITING_BYTES) is closed with code 1008 and the reason, instead of being
 * sent more. The close frame waits behind the unread bytes, so the socket is destroyed after a short grace.
 */
import type { WebSocket } from 'ws';
import type { Logger } from '../../host/logger.js';

export const MAX_WAITING_BYTES = 1024 * 1024;
/** 1008: policy violation (RFC 6455). */
export const TOO_SLOW_CLOSE_CODE = 1008;
const CLOSE_GRACE_MS = 2000;

/** Returns the send function of one client. */
export function boundedSender(ws: WebSocket, log: Logger): (message: string) => void {
  return (message) => {
    if (ws.readyState !== ws.OPEN) return;
    const waiting = ws.bufferedAmount;
    if (waiting <= MAX_WAITING_BYTES) return ws.send(message);
    const reason = `too slow: ${waiting} bytes waiting`;
    log.warn(`dropping a WebSocket client: ${reason}`);
    ws.close(TOO_SLOW_CLOSE_CODE, reason);
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  };
}
