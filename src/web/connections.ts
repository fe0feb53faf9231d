// How many connections the web server holds, from whom, and for how long: a flood from one address
// (70 idle sockets from a LAN device) takes its own share and no more, so /health, the board and the
// feeds still answer everyone else, and the Supervisor's ingress proxy (all of Home Assistant's users
// behind one address) keeps room of its own. A connection over a limit is closed at once, before it
// can send anything; one that sends no request in time is closed too.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { plainAddress } from './request.js';
import type { Clock, Timer } from '../util/clock.js';

export interface ConnectionLimits {
  /** All connections at once: each costs memory, and a family needs a few. */
  total: number;
  /** From any one address but the ingress proxy's (a browser opens at most 6 to one host). */
  perAddress: number;
  /** Of `total`, what the other addresses together never take while an ingress proxy is trusted. */
  ingressReserve: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = { total: 64, perAddress: 16, ingressReserve: 16 };

/** Counts the server's connections by address and closes those over the limits. */
export function limitConnections(server: Server, limits: ConnectionLimits, ingressAddress: string | undefined): void {
  const byAddress = new Map<string, number>();
  let all = 0;
  let fromIngress = 0;
  // Without a trusted proxy nothing needs keeping for it.
  const othersMax = ingressAddress === undefined ? limits.total : limits.total - limits.ingressReserve;
  server.on('connection', (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress ?? '');
    const ingress = address === ingressAddress;
    const mine = byAddress.get(address) ?? 0;
    const refused = ingress ? all >= limits.total : mine >= limits.perAddress || all - fromIngress >= othersMax;
    if (refused) {
      socket.destroy();
      return;
    }
    all++;
    if (ingress) fromIngress++;
    byAddress.set(address, mine + 1);
    socket.once('close', () => {
      all--;
      if (ingress) fromIngress--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
}

/**
 * Closes a connection that has no complete request header within `ms` of opening, or of its last
 * answer. Node's own headersTimeout cuts only a client that keeps sending (it is checked as bytes
 * arrive): a silent socket, or one stopped in the middle of its headers, would stay for good. The
 * bridge's clock runs it, so a test moves time instead of waiting. A long answer (an event stream)
 * is not timed: its request is complete.
 */
export function closeSilent(server: Server, clock: Clock, ms: number): void {
  const timers = new WeakMap<Socket, Timer>();
  const arm = (socket: Socket): void => {
    timers.get(socket)?.cancel();
    timers.set(socket, clock.setTimer(() => socket.destroy(), ms));
  };
  server.on('connection', (socket: Socket) => {
    // Refused by limitConnections just before.
    if (socket.destroyed) return;
    arm(socket);
    socket.once('close', () => timers.get(socket)?.cancel());
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    timers.get(socket)?.cancel();
    res.once('finish', () => {
      if (!socket.destroyed) arm(socket);
    });
  });
}
